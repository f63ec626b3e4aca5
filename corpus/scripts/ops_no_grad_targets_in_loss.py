"""A distributional Q-learning step: the target distribution is projected onto the
atoms with `index_add_` under `torch.no_grad()`, and the loss is taken against it. No
gradient flows through the projection, but its values are what the network is trained
toward: nondeterministic atomic adds on CUDA change the weights. RPL301, with the op as
its evidence (a no_grad block is not, by itself, outside what training computes)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda")  # expect: RPL301
atoms = torch.linspace(-10, 10, 51, device=device)
q_net = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2 * 51)).to(device)
target_net = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2 * 51)).to(device)
target_net.load_state_dict(q_net.state_dict())
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)

for step in range(1000):
    obs = torch.randn(32, 4, device=device)
    next_obs = torch.randn(32, 4, device=device)
    rewards = torch.randn(32, device=device)
    with torch.no_grad():
        next_pmfs = target_net(next_obs).view(32, 2, 51).softmax(-1)[:, 0]
        tz = (rewards.unsqueeze(1) + 0.99 * atoms).clamp(-10, 10)
        b = (tz + 10) / 0.4
        lower = b.floor().long()
        target = torch.zeros_like(next_pmfs)
        for i in range(32):
            target[i].index_add_(0, lower[i], next_pmfs[i] * (lower[i] + 1 - b[i]))
    pmfs = q_net(obs).view(32, 2, 51).softmax(-1)[:, 0]
    loss = -(target * pmfs.clamp(min=1e-5).log()).sum(-1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
