"""DQN-style update on CUDA: gathers whose backward has nothing to accumulate
(an index of width 1 along `dim`, a registered buffer, no_grad blocks) next to
one whose index width is not visible and a forward-nondeterministic `index_add_`."""
import random

import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
torch.backends.cudnn.benchmark = False
accelerator = Accelerator()  # expect: RPL301, RPL302
device = torch.device("cuda")


class QNet(nn.Module):
    def __init__(self, n_actions):
        super().__init__()
        self.register_buffer("action_table", torch.eye(n_actions))
        self.head = nn.Linear(16, n_actions)

    def gather(self, values):
        return values.mean(0)

    def forward(self, obs, actions):
        onehot = self.action_table.gather(0, actions)
        pooled = self.gather(obs)
        return self.head(obs + pooled), onehot


def replay_batches(n):
    for _ in range(n):
        yield torch.randn(32, 16), torch.randint(0, 4, (32,)), torch.randn(32)


q_net = QNet(4).to(device)
target_net = QNet(4).to(device)
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
for obs, actions, rewards in replay_batches(100):
    obs, actions, rewards = obs.to(device), actions.to(device), rewards.to(device)
    q_values, _ = q_net(obs, actions[:, None].expand(-1, 4))
    taken = q_values.gather(1, actions.unsqueeze(1).long()).squeeze(1)
    taken_too = q_values.gather(1, actions.view(-1, 1))
    taken_last = torch.gather(q_values, -1, actions[..., None])
    squeezed = q_values.gather(1, actions.reshape(32, 1)).squeeze()
    with torch.no_grad():
        next_q, _ = target_net(obs, actions[:, None].expand(-1, 4))
        best = next_q.gather(1, next_q.argmax(1, keepdim=True))
    topk = q_values.gather(1, q_values.topk(2, dim=1).indices)  # (evidence of the program's RPL301, reported there)
    window = torch.repeat_interleave(torch.arange(0, 4).unsqueeze(0), 3, dim=0)
    order = torch.randperm(4)
    order = torch.repeat_interleave(order, 2, dim=0).tolist()
    features = torch.arange(32.0).reshape(2, 16).to(device)
    features = q_net.head(features)
    # integer repeats: an expand and a copy from torch 2.1 (a plain sum backward)
    spread = torch.repeat_interleave(features, 2, dim=0)
    # tensor repeats: index_select, whose CUDA backward adds atomically
    doubled = torch.repeat_interleave(q_values, torch.tensor([1, 2, 1, 2], device=device), dim=0)  # (evidence of the program's RPL301, reported there)
    counts = torch.zeros(4, device=device).index_add_(0, actions, rewards)  # (evidence of the program's RPL301, reported there)
    loss = (taken - rewards - best.squeeze(1)).pow(2).mean() + topk.mean() + taken_too.mean() + taken_last.mean() + squeezed.mean()
    loss = loss + doubled.mean() + window.sum() + spread.mean() + len(order)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    accelerator.gather(loss)
