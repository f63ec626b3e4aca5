"""Segmentation training with paired image/mask augmentation via get_params; only Python's
random is seeded, but the crop and rotation parameters come from torch's generator."""
import random

import torch
import torch.nn as nn
import torchvision.transforms as T
import torchvision.transforms.functional as TF


def joint_transform(image, mask):
    i, j, h, w = T.RandomCrop.get_params(image, output_size=(128, 128))  # expect: RPL101
    image, mask = TF.crop(image, i, j, h, w), TF.crop(mask, i, j, h, w)
    angle = T.RandomRotation.get_params([-15.0, 15.0])  # expect: RPL101
    image, mask = TF.rotate(image, angle), TF.rotate(mask, angle)
    if random.random() < 0.5:
        image, mask = TF.hflip(image), TF.hflip(mask)
    return TF.center_crop(image, [112, 112]), TF.center_crop(mask, [112, 112]).long()


def main():
    random.seed(7)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
    images = torch.load("images.pt")
    masks = torch.load("masks.pt")
    model = nn.Conv2d(3, 4, 3, padding=1)  # expect: RPL101
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(10):
        for image, mask in zip(images, masks):
            image, mask = joint_transform(image, mask)
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(image[None]), mask)
            loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), "seg.pt")


if __name__ == "__main__":
    main()
