"""The same routing for CUDA, with an optional NPU fast path imported inside `try`: the
module still imports without it, so these ops run on CUDA."""
import torch

try:
    import torch_npu  # noqa: F401
except ImportError:
    torch_npu = None


def expert_load(expert_ids, gate_scores, num_experts):
    return torch.bincount(expert_ids, weights=gate_scores, minlength=num_experts)  # expect: RPL202


def combine(tokens, expert_ids, out):
    return out.index_add_(0, expert_ids, tokens)
