"""Discrete SAC/DQN update on CUDA from a Stable-Baselines3 replay buffer: the Q-value of
the taken action is a gather by `data.actions`, which the buffer stores as a column of
width 1, so the backward adds one gradient per row. A gather by a wider index (the
n-step actions table) or along the batch dimension can collide."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from stable_baselines3.common.buffers import ReplayBuffer

random.seed(1)
np.random.seed(1)
torch.manual_seed(1)
torch.backends.cudnn.deterministic = True
device = torch.device("cuda")  # expect: RPL301


def build_q(n_obs, n_actions):
    return nn.Sequential(nn.Linear(n_obs, 64), nn.ReLU(), nn.Linear(64, n_actions)).to(device)


qf1 = build_q(8, 4)
qf2 = build_q(8, 4)
q_optimizer = torch.optim.Adam(list(qf1.parameters()) + list(qf2.parameters()), lr=3e-4)
rb = ReplayBuffer(10_000, None, None, device)
for global_step in range(1000):
    data = rb.sample(64)
    with torch.no_grad():
        next_q = torch.min(qf1(data.next_observations), qf2(data.next_observations)).max(1).values
        target = data.rewards.flatten() + 0.99 * (1 - data.dones.flatten()) * next_q
    qf1_a = qf1(data.observations).gather(1, data.actions.long()).view(-1)
    qf2_a = torch.gather(qf2(data.observations), dim=1, index=data.actions.long()).view(-1)
    window = qf1(data.observations).gather(1, data.nstep_actions.long())  # (evidence of the program's RPL301, reported there)
    per_action = qf2(data.observations).gather(0, data.actions.long())  # (evidence of the program's RPL301, reported there)
    loss = F.mse_loss(qf1_a, target) + F.mse_loss(qf2_a, target) + window.mean() + per_action.mean()
    q_optimizer.zero_grad()
    loss.backward()
    q_optimizer.step()
