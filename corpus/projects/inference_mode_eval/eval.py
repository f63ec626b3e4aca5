"""Scores a trained captioner. The model is put in inference mode, so its scheduled
sampling (only while training) draws nothing: no finding."""
import argparse

import torch

from captioning.model import ShowTell

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
parser.add_argument("features")
args = parser.parse_args()

model = ShowTell()
model.load_state_dict(torch.load(args.checkpoint))
model.eval()
data = torch.load(args.features)
with torch.no_grad():
    logits = model(data["feats"], data["seq"])
print("accuracy", (logits.argmax(-1) == data["seq"]).float().mean().item())
