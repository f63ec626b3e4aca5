"""Expert routing for Ascend NPUs: the module imports `torch_npu` at its top level, so it
only imports where Ascend's runtime is installed and its ops run on the NPU, never on
CUDA: no CUDA kernel finding here."""
import torch
import torch_npu


def expert_counts(expert_ids, num_experts):
    return torch.histc(expert_ids.float(), bins=num_experts, min=0, max=num_experts - 1)


def combine(tokens, expert_ids, out):
    return out.index_add_(0, expert_ids, tokens)
