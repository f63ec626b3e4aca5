"""MAE-style random masking: the kept patches are gathered by a part of a permutation
(`argsort` of noise along the patch axis), so the backward scatter-add writes each element
once and the program trains through no nondeterministic kernel (look-alike:
masked_gather_random_index.py)."""
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
        return torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, D)).sum()


torch.manual_seed(0)
model = Masked().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.randn(8, 16, 32, device="cuda")).backward()
    opt.step()
