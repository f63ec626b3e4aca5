"""Hierarchical DQN on a toy MDP the script defines itself: `env.reset()` is that
class's method, which draws nothing (its transitions draw from Python's `random`, which
the script seeds), so no gym environment is seeded from OS entropy here (look-alike:
any gym environment's `env.reset()` without `seed=`, RPL102)."""
import random

import gym  # noqa: F401  (the wrappers of the full version)
import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)


class StochasticMDP:
    def __init__(self):
        self.end = False
        self.current_state = 2
        self.num_actions = 2
        self.num_states = 6

    def reset(self):
        self.end = False
        self.current_state = 2
        return self.current_state

    def step(self, action):
        if self.current_state != 1:
            if action == 1 and random.random() < 0.5 and self.current_state < self.num_states:
                self.current_state += 1
            else:
                self.current_state -= 1
        return self.current_state, float(self.current_state == 1), self.current_state == 1, {}


env = StochasticMDP()
q = nn.Linear(6, 2)
opt = torch.optim.Adam(q.parameters())
for episode in range(100):
    state = env.reset()
    done = False
    while not done:
        action = int(q(torch.eye(6)[state - 1]).argmax())
        state, reward, done, _ = env.step(action)
        loss = (q(torch.eye(6)[state - 1]).max() - reward) ** 2
        opt.zero_grad()
        loss.backward()
        opt.step()
