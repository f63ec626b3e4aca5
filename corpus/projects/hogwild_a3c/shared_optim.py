import torch


class SharedAdam(torch.optim.Adam):
    """Adam whose state lives in shared memory, so every process steps the same moments."""

    def share_memory(self):
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = torch.zeros(1).share_memory_()
                state["exp_avg"] = torch.zeros_like(p.data).share_memory_()
                state["exp_avg_sq"] = torch.zeros_like(p.data).share_memory_()
