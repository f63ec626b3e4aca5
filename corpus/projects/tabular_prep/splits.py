import numpy as np


def make_splits(n, fractions=(0.8, 0.1, 0.1), seed=None):
    """Index splits from a private Generator (seeded from `seed`)."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    cuts = np.cumsum([int(f * n) for f in fractions[:-1]])
    return np.split(order, cuts)


def bootstrap_mean(values, n_boot=1000):
    values = np.asarray(values)
    means = np.empty(n_boot)
    for b in range(n_boot):
        means[b] = values[np.random.randint(0, len(values), len(values))].mean()
    return means.mean(), means.std()
