"""Times the forward and backward pass of scaled-dot-product attention with CUDA events.
Nothing is trained (no optimizer): a benchmark, whose backward kernels' summation order
changes no result anyone keeps."""
import torch
import torch.nn.functional as F

device = torch.device("cuda")
q = torch.ones(8, 12, 256, 64, device=device, requires_grad=True)
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
times = []
for _ in range(100):
    q.grad = None
    start.record()
    F.scaled_dot_product_attention(q, q, q, is_causal=True).sum().backward()
    end.record()
    torch.cuda.synchronize()
    times.append(start.elapsed_time(end))
print(f"{sum(times) / len(times):.3f} ms")
