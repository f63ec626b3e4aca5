"""Seeds NumPy with a number drawn from NumPy itself, inline: Python evaluates the
argument first, so the draw comes from the generator before it is seeded, and the seed
differs on every run. The look-alike draws torch's seed from `random`, which the script
seeded first: that seed is the same on every run."""
import random

import numpy as np
import torch

np.random.seed(np.random.randint(0, 2**31 - 1))  # expect: RPL103
random.seed(1234)
torch.manual_seed(random.randint(0, 2**31 - 1))
print(np.random.rand(3), torch.rand(3))
