"""The same routing for CUDA, with an optional NPU fast path imported inside `try`: the
module still imports without it, so these ops run on CUDA."""
import torch

try:
    import torch_npu  # noqa: F401
except ImportError:
    torch_npu = None


def expert_counts(expert_ids, num_experts):
    return torch.histc(expert_ids.float(), bins=num_experts, min=0, max=num_experts - 1)  # expect: RPL202


def combine(tokens, expert_ids, out):
    return out.index_add_(0, expert_ids, tokens)
