"""The look-alike of calibration_exits_unless_validate.py: it stops only when
`--validate` is passed, so a default run goes on to the shifted evaluation and draws
its colour shifts from NumPy, never seeded (RPL101)."""
import argparse

import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint", default="model.pt")
parser.add_argument("--validate", action="store_true", help="also run the shifted validation")
args = parser.parse_args()

model = torch.load(args.checkpoint, weights_only=False)
model.eval()
with torch.no_grad():
    print("accuracy", (model(torch.ones(8, 3, 32, 32)).argmax(1) == 0).float().mean().item())

if args.validate:
    exit()

shifts = np.random.uniform(-0.1, 0.1, size=(8, 3, 1, 1))  # expect: RPL101
with torch.no_grad():
    shifted = torch.ones(8, 3, 32, 32) + torch.from_numpy(shifts).float()
    print("shifted accuracy", (model(shifted).argmax(1) == 0).float().mean().item())
