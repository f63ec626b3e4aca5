import random

import numpy as np
import torch
from PIL import ImageFilter
from torchvision import transforms


class GaussianBlur:
    def __init__(self, sigma=(0.1, 2.0)):
        self.sigma = sigma

    def __call__(self, img):
        radius = np.random.uniform(self.sigma[0], self.sigma[1])  # expect: RPL101
        return img.filter(ImageFilter.GaussianBlur(radius=radius))


class Solarize:
    def __init__(self, p=0.2):
        self.p = p

    def __call__(self, img):
        if random.random() < self.p:
            return img.point(lambda v: 255 - v if v > 128 else v)
        return img


def simclr_transform(size=96):
    color = transforms.ColorJitter(0.8, 0.8, 0.8, 0.2)
    return transforms.Compose([
        transforms.RandomResizedCrop(size),
        transforms.RandomHorizontalFlip(),
        transforms.RandomApply([color], p=0.8),
        transforms.RandomGrayscale(p=0.2),
        GaussianBlur(),
        Solarize(),
        transforms.ToTensor(),
    ])


class TwoViews:
    def __init__(self, base):
        self.base = base

    def __call__(self, x):
        return torch.stack([self.base(x), self.base(x)])
