"""Paired image/mask augmentation via get_params with torch and random seeded first: clean."""
import random

import torch
import torch.nn as nn
import torchvision.transforms as T
import torchvision.transforms.functional as TF


def joint_transform(image, mask):
    i, j, h, w = T.RandomCrop.get_params(image, output_size=(128, 128))
    image, mask = TF.crop(image, i, j, h, w), TF.crop(mask, i, j, h, w)
    angle = T.RandomRotation.get_params([-15.0, 15.0])
    image, mask = TF.rotate(image, angle), TF.rotate(mask, angle)
    if random.random() < 0.5:
        image, mask = TF.hflip(image), TF.hflip(mask)
    return TF.center_crop(image, [112, 112]), TF.center_crop(mask, [112, 112]).long()


def main():
    random.seed(7)
    torch.manual_seed(7)
    torch.use_deterministic_algorithms(True)
    images = torch.load("images.pt")
    masks = torch.load("masks.pt")
    model = nn.Conv2d(3, 4, 3, padding=1)
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
