"""Segmentation data: masks are looked up by file name in a table a loop fills from a
listing (it stops the program on a duplicate name, whichever entry comes first), the
image list keeps the listing's order and is what the model trains on, in that order."""
import os

import numpy as np
import torch


class DataLoaderError(Exception):
    pass


def pairs(images_path, segs_path):
    masks = {}
    for entry in os.listdir(segs_path):
        name, ext = os.path.splitext(entry)
        if name in masks:
            raise DataLoaderError("mask {} is there twice".format(name))
        masks[name] = os.path.join(segs_path, entry)
    found = []
    for entry in os.listdir(images_path):  # expect: RPL402
        name, ext = os.path.splitext(entry)
        if name not in masks:
            raise DataLoaderError("no mask for {}".format(entry))
        found.append((os.path.join(images_path, entry), masks[name]))
    return found


if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Conv2d(3, 2, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for image, mask in pairs("data/images", "data/masks"):
        x = torch.from_numpy(np.load(image))
        loss = (model(x) - torch.from_numpy(np.load(mask))).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
