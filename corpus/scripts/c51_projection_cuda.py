"""C51's target projection on the GPU (`torch.zeros(..., device=device)`): `index_add_`
adds with atomics in any order, and the program never turns deterministic algorithms
on (look-alike: c51_projection_cpu.py, which projects on the CPU)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")  # expect: RPL301
atoms, batch = 51, 32
net = nn.Linear(4, atoms).to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def projection(next_dist, rewards):
    next_dist = next_dist.detach()
    b = (rewards.unsqueeze(1) + torch.linspace(-10, 10, atoms, device=device)).clamp(-10, 10)
    l, u = b.floor().long(), b.ceil().long()
    offset = torch.linspace(0, (batch - 1) * atoms, batch, device=device).long().unsqueeze(1).expand(batch, atoms)
    proj_dist = torch.zeros(next_dist.size(), device=device)
    proj_dist.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
    proj_dist.view(-1).index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
    return proj_dist


for step in range(100):
    x = torch.randn(batch, 4, device=device)
    target = projection(net(x).softmax(-1), torch.randn(batch, device=device)).to(device)
    loss = -(target * net(x).log_softmax(-1)).sum(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
