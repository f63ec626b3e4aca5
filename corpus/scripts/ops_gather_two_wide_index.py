"""A look-alike of the CRF's gathers whose index holds two entries per row along the
gathered axis (`view(seq_len, batch, 2)`): two entries may name one element, and the
backward scatter-add then adds into it twice with atomics, in either order."""
import torch

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")  # expect: RPL301
weights = torch.zeros(6, 4, 10, device=device, requires_grad=True)
optimizer = torch.optim.SGD([weights], lr=0.1)
for step in range(10):
    pairs = torch.zeros(4, 12, dtype=torch.long, device=device)
    picked = torch.gather(weights, 2, pairs.transpose(1, 0).contiguous().view(6, 4, 2))  # (evidence of the program's RPL301, reported there)
    loss = picked.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
