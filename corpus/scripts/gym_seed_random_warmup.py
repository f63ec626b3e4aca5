"""The look-alike of dmc2gym_random_warmup.py with a gym environment: `env.seed(s)`
seeds the environment, not its action space (gym issue 681), so the warm-up actions
come from a generator seeded from OS entropy."""
import argparse

import gym
import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--init_steps", type=int, default=1000)
args = parser.parse_args()

torch.manual_seed(args.seed)
np.random.seed(args.seed)
env = gym.make("HalfCheetah-v2")
env.seed(args.seed)
buffer = []
obs = env.reset()
for step in range(args.init_steps):
    action = env.action_space.sample()  # expect: RPL102
    next_obs, reward, done, _ = env.step(action)
    buffer.append((obs, action, reward, next_obs, done))
    obs = env.reset() if done else next_obs
np.save("warmup.npy", np.array([b[2] for b in buffer]))
