"""Look-alike of rl_gym_env_unseeded.py: the first reset takes the seed and the action space is
seeded, so later seedless resets continue the seeded stream. The replay buffer's `sample` and
the meter's `reset` are the program's own methods."""
import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn


class Meter:
    def __init__(self):
        self.total = 0.0

    def reset(self):
        self.total = 0.0


class Buffer:
    def __init__(self, size):
        self.obs = np.zeros((size, 3), dtype=np.float32)
        self.rng = np.random.default_rng(0)

    def sample(self, n):
        return self.obs[self.rng.integers(0, len(self.obs), size=n)]


def train(seed=0, steps=2000, start_steps=500):
    torch.manual_seed(seed)
    np.random.seed(seed)
    env = gym.make("Pendulum-v1")
    env.action_space.seed(seed)
    pi = nn.Sequential(nn.Linear(3, 64), nn.Tanh(), nn.Linear(64, 1))
    optimizer = torch.optim.Adam(pi.parameters(), lr=1e-3)
    buffer, meter = Buffer(1000), Meter()
    o, _ = env.reset(seed=seed)
    for t in range(steps):
        a = env.action_space.sample() if t < start_steps else pi(torch.as_tensor(o)).detach().numpy()
        o, r, terminated, truncated, _ = env.step(a)
        meter.reset()
        if terminated or truncated:
            o, _ = env.reset()
        if t % 50 == 0:
            batch = torch.as_tensor(buffer.sample(32))
            loss = pi(batch).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    train()
