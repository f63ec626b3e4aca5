"""Trains a query probe through scaled-dot-product attention and times each step: the
optimizer updates parameters, so this is training (the timing is only logging)."""
import torch
import torch.nn.functional as F

device = torch.device("cuda")  # expect: RPL301
keys = torch.ones(8, 12, 256, 64, device=device)
query = torch.zeros(8, 12, 256, 64, device=device, requires_grad=True)
opt = torch.optim.Adam([query], lr=1e-3)
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
for step in range(1000):
    start.record()
    out = F.scaled_dot_product_attention(query, keys, keys, is_causal=True)  # (evidence of the program's RPL301, reported there)
    loss = (out - 1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    end.record()
    torch.cuda.synchronize()
    print(step, start.elapsed_time(end))
