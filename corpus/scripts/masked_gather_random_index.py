"""The look-alike of masked_gather_permutation.py: the patches are gathered at random
positions (`randint`), which may repeat, so two gradient adds can meet in the gather's
backward on CUDA (RPL301)."""
import torch
import torch.nn as nn


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)

    def forward(self, x):
        x = self.proj(x)
        N, L, D = x.shape
        ids_shuffle = torch.argsort(torch.rand(N, L, device=x.device), dim=1)
        ids_keep = ids_shuffle[:, : L // 4]
        return torch.gather(x, dim=1, index=torch.randint(0, L, (N, L // 4, D), device=x.device)).sum()


torch.manual_seed(0)
model = Masked().cuda()  # expect: RPL301
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.randn(8, 16, 32, device="cuda")).backward()
    opt.step()
