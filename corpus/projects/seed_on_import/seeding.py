"""Importing this module seeds everything (a pattern some teams use: `import seeding`)."""
import os
import random

import numpy as np
import torch

SEED = int(os.environ.get("SEED", "17"))

random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
