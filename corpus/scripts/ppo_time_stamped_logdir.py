"""A policy-gradient exercise that names its log folder after the time and calls the
library's `ppo`, which seeds NumPy and torch with its `seed` argument (0 by default):
the time reaches only the folder's name, no seed (no RPL103)."""
import time

import numpy as np
import torch


def ppo(env_name, seed=0, epochs=10, logger_kwargs=None):
    torch.manual_seed(seed)
    np.random.seed(seed)
    policy = torch.nn.Linear(4, 2)
    print(env_name, epochs, logger_kwargs, policy(torch.from_numpy(np.random.randn(1, 4)).float()))


if __name__ == "__main__":
    logdir = "/tmp/experiments/%i" % int(time.time())
    ppo("CartPole-v1", epochs=20, logger_kwargs=dict(output_dir=logdir))
