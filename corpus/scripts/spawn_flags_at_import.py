"""Look-alike of spawn_flags_in_parent.py: the determinism switches sit at the module's top
level, outside the `__main__` block, so every spawned child sets them again when it
re-imports the module."""
import os

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"

import torch  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn as nn  # noqa: E402

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False


def main_worker(gpu, steps):
    torch.cuda.set_device(gpu)
    model = nn.Conv2d(3, 8, 3).cuda(gpu)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = model(torch.zeros(4, 3, 16, 16).cuda(gpu)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    mp.spawn(main_worker, nprocs=2, args=(100,))
