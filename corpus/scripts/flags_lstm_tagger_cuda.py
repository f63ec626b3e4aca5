"""A sequence tagger whose LSTM trains on CUDA through cuDNN without
`cudnn.deterministic`: RPL302 at the line that selects the GPU."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: RPL302
lstm = nn.LSTM(32, 64, batch_first=True).to(device)
head = nn.Linear(64, 5).to(device)
opt = torch.optim.SGD([*lstm.parameters(), *head.parameters()], lr=0.1)
tokens = torch.ones(8, 12, 32, device=device)
tags = torch.zeros(8, 12, dtype=torch.long, device=device)
for step in range(100):
    out, _ = lstm(tokens)
    loss = nn.functional.cross_entropy(head(out).reshape(-1, 5), tags.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
