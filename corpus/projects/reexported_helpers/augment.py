"""Writes a noisy copy of a tensor file with the re-exported `jitter`, seeding nothing:
torch's global RNG draws unseeded inside toolkit/utils/noise.py."""
import sys

import torch

from toolkit.utils import jitter

if __name__ == "__main__":
    data = torch.load(sys.argv[1])
    torch.save(jitter(data), sys.argv[2])
