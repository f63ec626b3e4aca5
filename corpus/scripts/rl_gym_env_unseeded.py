"""Spinning Up-style off-policy loop: torch and NumPy are seeded, the environments are not."""
import gym
import numpy as np
import torch
import torch.nn as nn


def ddpg(env_fn, seed=0, steps=4000, start_steps=1000, max_ep_len=200):
    torch.manual_seed(seed)
    np.random.seed(seed)
    env, test_env = env_fn(), env_fn()
    obs_dim = env.observation_space.shape[0]
    act_dim = env.action_space.shape[0]
    pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
    optimizer = torch.optim.Adam(pi.parameters(), lr=1e-3)
    o, ep_len = env.reset(), 0  # expect: RPL102
    for t in range(steps):
        if t > start_steps:
            a = pi(torch.as_tensor(o, dtype=torch.float32)).detach().numpy()
        else:
            a = env.action_space.sample()  # expect: RPL102
        o, r, d, _ = env.step(a)
        ep_len += 1
        if d or ep_len == max_ep_len:
            o, ep_len = env.reset(), 0
        if t % 50 == 0:
            loss = -pi(torch.as_tensor(o, dtype=torch.float32)).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    for _ in range(5):
        o, d = test_env.reset(), False  # expect: RPL102
        while not d:
            o, r, d, _ = test_env.step(pi(torch.as_tensor(o, dtype=torch.float32)).detach().numpy())


if __name__ == "__main__":
    ddpg(lambda: gym.make("Pendulum-v1"))
