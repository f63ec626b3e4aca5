"""Launches one run seeded from the clock."""
import time

import numpy as np

from launcher import run_experiment


def experiment(variant):
    print(variant, np.random.rand())


run_experiment(experiment, seed=int(time.time()))  # expect: RPL103
