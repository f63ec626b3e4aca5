"""The look-alike: the same scoring script forgets `model.eval()`. Modules start in
training mode, so the scheduled sampling runs and draws from unseeded torch."""
import argparse

import torch

from showtell.model import ShowTell

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
parser.add_argument("features")
args = parser.parse_args()

model = ShowTell()
model.load_state_dict(torch.load(args.checkpoint))
data = torch.load(args.features)
with torch.no_grad():
    logits = model(data["feats"], data["seq"])
print("accuracy", (logits.argmax(-1) == data["seq"]).float().mean().item())
