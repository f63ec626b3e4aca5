"""Launches one run with a configuration that records the launch time: the time stamp is
a field of the logged configuration, not the seed (the launcher draws that)."""
from datetime import datetime

import numpy as np

from launcher import run_experiment


def experiment(variant):
    print(variant, np.random.rand())


if __name__ == "__main__":
    now = datetime.now()
    variant = dict(epochs=10, launch_time=str(now.strftime("%m/%d/%Y %H:%M:%S")))
    run_experiment(experiment, variant=variant)
