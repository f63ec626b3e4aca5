import numpy as np


def extract_features(features, keep=0.5):
    """Subsamples the data with NumPy's global RNG."""
    chosen = np.random.rand(len(features)) < keep  # expect: RPL101
    return [f for f, c in zip(features, chosen) if c]
