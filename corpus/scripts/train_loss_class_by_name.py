"""Training loop whose loss object is built from a class name in the config (a plugin
registry): the backward pass sits in a method no call in this file visibly reaches, but
the loop zeroes the gradients and steps the optimizer every iteration."""
import importlib

import torch
import torch.nn as nn

CONFIG = {"loss_class": "__main__.HingeLoss", "lr": 1e-3, "steps": 500}


class HingeLoss:
    def __init__(self, model):
        self.model = model

    def accumulate_gradients(self, images, labels):
        scores = self.model(images).squeeze(1)
        torch.relu(1.0 - labels * scores).mean().backward()


def build(class_name, **kwargs):
    module, _, name = class_name.rpartition(".")
    return getattr(importlib.import_module(module), name)(**kwargs)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda")  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(1)).to(device)
    opt = build("torch.optim.Adam", params=model.parameters(), lr=CONFIG["lr"])
    loss = build(CONFIG["loss_class"], model=model)
    for _ in range(CONFIG["steps"]):
        images = torch.zeros(8, 3, 32, 32, device=device)
        labels = torch.ones(8, device=device)
        opt.zero_grad(set_to_none=True)
        loss.accumulate_gradients(images, labels)
        opt.step()


if __name__ == "__main__":
    main()
