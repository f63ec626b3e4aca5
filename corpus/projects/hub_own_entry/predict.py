"""Loads the project's own `tiny` entry through torch.hub: by its hubconf.py default it
loads trained weights over the ones it drew, and so does torchvision's resnet18 when
asked for `pretrained=True`: no weight drawn here reaches a prediction."""
import json
import sys

import torch

model = torch.hub.load(".", "tiny", source="local")
backbone = torch.hub.load("pytorch/vision", "resnet18", pretrained=True)
model.eval()
with torch.no_grad():
    x = torch.tensor(json.load(open(sys.argv[1])))
    print(model(x).argmax(dim=1), backbone.fc.out_features)
