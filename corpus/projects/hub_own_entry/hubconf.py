"""The project's torch.hub entries: `tiny` loads trained weights unless told otherwise,
`tiny_scratch` does not."""
import torch
import torch.nn as nn

dependencies = ["torch"]


def _build():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


def tiny(pretrained=True):
    model = _build()
    if pretrained:
        model.load_state_dict(torch.hub.load_state_dict_from_url("https://example.org/tiny.pt"))
    return model


def tiny_scratch(pretrained=False):
    model = _build()
    if pretrained:
        model.load_state_dict(torch.hub.load_state_dict_from_url("https://example.org/tiny.pt"))
    return model
