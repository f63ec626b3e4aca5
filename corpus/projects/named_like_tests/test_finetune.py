"""Top-level fine-tuning code in a `test_*.py` (no test function, no test class): a
program, not a test module."""
import random

import numpy as np

weights = np.zeros(8)
samples = list(range(100))
random.shuffle(samples)  # expect: RPL101
for i in samples:
    noise = np.random.normal(size=8)  # expect: RPL101
    weights += 0.01 * noise
np.save("weights.npy", weights)
