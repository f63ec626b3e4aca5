"""A CLIP-style text encoder masks the tokens after the end-of-text id: the mask is a
comparison bound to a name, and its cumsum counts in int64, a deterministic kernel
(look-alike: the float cumsum of the running scores below)."""
import os

import torch
import torch.nn as nn

os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)


class TextEncoder(nn.Module):
    def __init__(self, vocab=1000, dim=64, eos_id=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.eos_id = eos_id

    def forward(self, text):
        is_eos = text == self.eos_id
        keep = is_eos.cumsum(dim=-1) == 0
        scores = self.embed(text).sum(-1)
        running = scores.cumsum(dim=-1)  # expect: RPL202
        return (running * keep).sum()


model = TextEncoder().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(10):
    loss = model(torch.randint(0, 1000, (8, 32), device="cuda"))
    opt.zero_grad()
    loss.backward()
    opt.step()
