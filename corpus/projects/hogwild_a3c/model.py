import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, inputs, actions):
        super().__init__()
        self.body = nn.Linear(inputs, 64)
        self.actor = nn.Linear(64, actions)
        self.critic = nn.Linear(64, 1)

    def forward(self, x):
        h = F.relu(self.body(x))
        return self.actor(h), self.critic(h)
