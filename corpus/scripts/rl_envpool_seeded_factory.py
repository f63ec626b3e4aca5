"""Look-alike of rl_gym_env_unseeded.py (cleanrl envpool style): envpool.make takes the seed,
so the seedless resets continue a seeded stream; the observation space is sampled only as a
dummy input for the network's shapes."""
import envpool
import gym
import numpy as np
import torch
import torch.nn as nn


def train(seed=1, steps=1000):
    torch.manual_seed(seed)
    np.random.seed(seed)
    envs = envpool.make("Pong-v5", env_type="gym", num_envs=8, seed=seed)
    dummy = torch.as_tensor(envs.observation_space.sample(), dtype=torch.float32)
    q = nn.Sequential(nn.Flatten(), nn.LazyLinear(envs.single_action_space.n))
    q(dummy[None])
    optimizer = torch.optim.Adam(q.parameters(), lr=1e-4)
    obs = envs.reset()
    for _ in range(steps):
        actions = q(torch.as_tensor(obs, dtype=torch.float32)).argmax(dim=1).numpy()
        obs, rewards, dones, infos = envs.step(actions)
        loss = -q(torch.as_tensor(obs, dtype=torch.float32)).max(dim=1).values.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train()
