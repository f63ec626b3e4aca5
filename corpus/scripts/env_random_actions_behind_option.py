"""Random actions only with `--random-agent` (off by default): that sample does not run
on a default run. The exploration sample of the epsilon-greedy branch runs, and draws
from the action space's own generator, which no seed reaches."""
import argparse
import random

import gymnasium as gym
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--random-agent", action="store_true")
parser.add_argument("--epsilon", type=float, default=0.1)
args = parser.parse_args()

random.seed(0)
torch.manual_seed(0)
env = gym.make("CartPole-v1")
policy = torch.nn.Linear(4, 2)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
obs, _ = env.reset(seed=0)
for step in range(1000):
    if args.random_agent:
        action = env.action_space.sample()
    elif random.random() < args.epsilon:
        action = env.action_space.sample()  # expect: RPL102
    else:
        action = int(policy(torch.as_tensor(obs)).argmax())
    obs, reward, terminated, truncated, _ = env.step(action)
    loss = -torch.as_tensor(reward) * policy(torch.as_tensor(obs)).max()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if terminated or truncated:
        obs, _ = env.reset()
