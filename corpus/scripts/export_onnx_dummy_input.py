"""Exports a trained classifier to ONNX and TorchScript. The random tensors are only the
example inputs the exporters trace with: the files written depend on their shape, not
their values, so nothing here needs a seed."""
import argparse

import torch
import torchvision

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
parser.add_argument("--size", type=int, default=224)
args = parser.parse_args()

model = torchvision.models.resnet50()
model.load_state_dict(torch.load(args.checkpoint, map_location="cpu"))
model.eval()

dummy = torch.randn(1, 3, args.size, args.size)
torch.onnx.export(model, dummy, "resnet50.onnx", opset_version=17, input_names=["image"])
traced = torch.jit.trace(model, torch.rand(1, 3, args.size, args.size))
traced.save("resnet50.pt")
