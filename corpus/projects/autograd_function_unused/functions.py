"""A straight-through quantiser as a custom autograd Function: its backward adds the
gradients of the picked codes with `index_add_`, whose CUDA kernel accumulates with
atomics (nondeterministic). It runs only where code calls `quantize`."""
import torch
from torch.autograd import Function


class Quantize(Function):
    @staticmethod
    def forward(ctx, inputs, codebook):
        distances = torch.cdist(inputs, codebook)
        indices = distances.argmin(dim=1)
        ctx.save_for_backward(indices, codebook)
        return codebook.index_select(0, indices)

    @staticmethod
    def backward(ctx, grad_output):
        indices, codebook = ctx.saved_tensors
        grad_codebook = torch.zeros_like(codebook)
        grad_codebook.index_add_(0, indices, grad_output)
        return grad_output, grad_codebook


quantize = Quantize.apply
