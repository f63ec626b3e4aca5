"""Augmentation with NumPy's global RNG; RPL101 is silenced on the draw while the team
triages, so RPL105 at the helper says what the seeding misses."""
import numpy as np


def jitter(x):
    return x + np.random.normal(scale=0.1, size=x.shape)  # noqa: RPL101
