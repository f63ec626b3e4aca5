"""CURL/SAC-style warm-up on the DeepMind Control Suite through dmc2gym: the first steps
take random actions from `env.action_space.sample()`. dmc2gym's wrapper seeds its action
and observation spaces when it is built (`seed=`, 1 by default), so they are seeded."""
import argparse

import dmc2gym
import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--init_steps", type=int, default=1000)
args = parser.parse_args()

torch.manual_seed(args.seed)
np.random.seed(args.seed)
env = dmc2gym.make(domain_name="cheetah", task_name="run", seed=args.seed, from_pixels=False)
buffer = []
obs = env.reset()
for step in range(args.init_steps):
    action = env.action_space.sample()
    next_obs, reward, done, _ = env.step(action)
    buffer.append((obs, action, reward, next_obs, done))
    obs = env.reset() if done else next_obs
np.save("warmup.npy", np.array([b[2] for b in buffer]))
