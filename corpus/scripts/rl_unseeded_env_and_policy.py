"""A DQN-style loop with nothing seeded: torch's generator (the Q-network's weights and
exploration), Python's `random` (replay sampling) and the environment's own generator
(`env.reset()` without `seed=`) are three separate causes."""
import collections
import random

import gymnasium as gym
import torch
import torch.nn.functional as F
from torch import nn


class ReplayBuffer:
    def __init__(self, limit=10000):
        self.buffer = collections.deque(maxlen=limit)

    def put(self, transition):
        self.buffer.append(transition)

    def sample(self, n):
        batch = random.sample(self.buffer, n)  # expect: RPL101
        states = torch.tensor([b[0] for b in batch], dtype=torch.float32)
        actions = torch.tensor([[b[1]] for b in batch])
        returns = torch.tensor([[b[2]] for b in batch], dtype=torch.float32)
        return states, actions, returns


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 64)  # expect: RPL101
        self.fc2 = nn.Linear(64, 2)  # expect: RPL101

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

    def act(self, obs, epsilon):
        if torch.rand(()).item() < epsilon:  # expect: RPL101
            return int(torch.randint(0, 2, ()).item())  # expect: RPL101
        return self.forward(obs).argmax().item()


def main():
    env = gym.make("CartPole-v1")
    q = QNet()
    memory = ReplayBuffer()
    optimizer = torch.optim.Adam(q.parameters(), lr=5e-4)
    for episode in range(200):
        state, _ = env.reset()  # expect: RPL102
        done = False
        while not done:
            action = q.act(torch.from_numpy(state).float(), 0.05)
            next_state, reward, terminated, truncated, _ = env.step(action)
            memory.put((state, action, reward))
            state, done = next_state, terminated or truncated
        if len(memory.buffer) > 64:
            states, actions, returns = memory.sample(32)
            loss = F.smooth_l1_loss(q(states).gather(1, actions), returns)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    env.close()


if __name__ == "__main__":
    main()
