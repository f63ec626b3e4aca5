"""Data loaders of an image-translation package (its `__init__.py` is empty). The
training loader applies a random crop half of the time, drawn from Python's `random`;
the evaluation loader draws nothing."""
import random

from torch.utils.data import DataLoader
from torchvision import transforms


def get_train_loader(dataset, img_size=256, prob=0.5, batch_size=8):
    crop = transforms.RandomResizedCrop(img_size, scale=(0.8, 1.0))
    maybe_crop = transforms.Lambda(lambda x: crop(x) if random.random() < prob else x)  # expect: RPL101
    dataset.transform = transforms.Compose([maybe_crop, transforms.Resize((img_size, img_size)), transforms.ToTensor()])
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True)


def get_eval_loader(dataset, img_size=256, batch_size=32):
    dataset.transform = transforms.Compose([transforms.Resize((img_size, img_size)), transforms.ToTensor()])
    return DataLoader(dataset, batch_size=batch_size, shuffle=False)
