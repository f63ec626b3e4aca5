"""The look-alike of export_onnx_dummy_input.py: the same random input also goes through
the PyTorch model, and the printed output is the program's result, so it differs
between runs."""
import argparse

import torch
import torchvision

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
args = parser.parse_args()

model = torchvision.models.resnet50()
model.load_state_dict(torch.load(args.checkpoint, map_location="cpu"))
model.eval()

dummy = torch.randn(1, 3, 224, 224)  # expect: RPL101
torch.onnx.export(model, dummy, "resnet50.onnx")
with torch.no_grad():
    print("reference logits:", model(dummy)[0, :5])
