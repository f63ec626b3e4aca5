"""Scores a saved model with the engine's `evaluate` only: `train` (and the shuffle it
draws) never runs here, although the engine module reads `.train` as a method of the
model. Nothing to report."""
import sys

import torch

from engine import evaluate

if __name__ == "__main__":
    model = torch.load(sys.argv[1], weights_only=False)
    print(f"accuracy {evaluate(model, torch.load(sys.argv[2])):.4f}")
