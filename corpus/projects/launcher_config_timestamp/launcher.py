"""An experiment launcher: it seeds `random` and NumPy from its `seed` argument, drawn at
random when none is given; the configuration it is given is only logged."""
import random

import numpy as np


def run_experiment(function, seed=None, variant=None):
    if seed is None:
        seed = random.randint(0, 100000)  # expect: RPL103
    variant = dict(variant or {})
    variant["seed"] = str(seed)
    random.seed(seed)
    np.random.seed(seed)
    return function(variant)
