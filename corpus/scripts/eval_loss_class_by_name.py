"""Look-alike of train_loss_class_by_name.py: the same registry builds the model, but
this script only scores a trained checkpoint (no optimizer, no gradients to zero)."""
import importlib

import torch

CONFIG = {"model_class": "torchvision.models.resnet18", "checkpoint": "model.pt"}


def build(class_name, **kwargs):
    module, _, name = class_name.rpartition(".")
    return getattr(importlib.import_module(module), name)(**kwargs)


@torch.no_grad()
def main():
    device = torch.device("cuda")
    model = build(CONFIG["model_class"], num_classes=10)
    model.load_state_dict(torch.load(CONFIG["checkpoint"], map_location="cpu"))
    model.to(device).eval()
    images = torch.zeros(8, 3, 224, 224, device=device)
    print(model(images).argmax(1).tolist())


if __name__ == "__main__":
    main()
