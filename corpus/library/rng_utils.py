"""Reusable RNG helpers for experiments. Library code: no entry point imports it."""
import time
from typing import Optional

import numpy as np
import torch


def make_rng(seed: Optional[int] = None) -> np.random.Generator:
    """A NumPy Generator; pass a seed to make it reproducible."""
    return np.random.default_rng(seed)


def fresh_rng() -> np.random.Generator:
    return np.random.default_rng()  # expect: RPL102


def clock_rng() -> np.random.Generator:
    return np.random.default_rng(time.time_ns())  # expect: RPL102


def reseed_numpy_from_clock() -> int:
    seed = int(time.time() * 1000) % 2**32
    np.random.seed(seed)  # expect: RPL103
    return seed


def maybe_seed_torch(seed: Optional[int] = None) -> None:
    # conditional, but RPL104 is a program-level rule: not reported in library code
    if seed is not None:
        torch.manual_seed(seed)


def jitter(x: np.ndarray, scale: float = 0.1) -> np.ndarray:
    # a global draw, but only programs can be "unseeded": not reported here
    return x + np.random.normal(0.0, scale, size=x.shape)


def random_mask(shape, p=0.15):
    return torch.rand(shape) < p


def torch_generator(seed: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(seed)
    return g
