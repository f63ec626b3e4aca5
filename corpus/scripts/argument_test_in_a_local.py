"""Helpers that keep a test of their arguments in a local before branching on it
(`scheduled = input_sizes is not None`, then `if scheduled:`). The loader helper is
called without `input_sizes`, so its shuffled order is never drawn on the default run
(torch draws nothing here); the noise helper is called with `jitter`, so its NumPy draw
runs, unseeded."""
import numpy as np
import torch


def make_order(n, input_sizes=None):
    scheduled = input_sizes is not None
    if scheduled:
        return torch.randperm(n)
    return torch.arange(n)


def add_noise(values, jitter=None):
    noisy = jitter is not None and jitter > 0
    if noisy:
        return values + np.random.normal(0.0, jitter, size=values.shape)  # expect: RPL101
    return values


if __name__ == "__main__":
    print(make_order(8))
    print(add_noise(np.zeros(4), jitter=0.5))
