"""Builds the generator the resolution names (`getattr(nets, f"Generator{resolution}")`)
and saves its initial weights, with torch never seeded: the key can only name a
`Generator*` member, so `PowerIteration`'s draw never runs here (no finding there); the
generator's initialisation is reported, on the run the key names it."""
import sys

import torch

import nets

resolution = int(sys.argv[1]) if len(sys.argv) > 1 else 32
generator = getattr(nets, f"Generator{resolution}")()
torch.save(generator.state_dict(), f"generator{resolution}.pt")
