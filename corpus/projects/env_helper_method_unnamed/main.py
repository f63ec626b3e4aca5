"""Plays with random exploration; the environment is seeded, its action space is not."""
import random

import numpy as np

from utils.atari import AtariEnvironment

random.seed(0)
np.random.seed(0)
env = AtariEnvironment("PongNoFrameskip-v4")
state = env.reset(seed=0)
for step in range(100):
    state, reward, done, truncated, info = env.step(env.explore())
    if done:
        state = env.reset(seed=step)
