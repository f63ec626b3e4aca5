"""Prediction with test-time augmentation: every image of a folder gets a random crop,
and which crop a file gets follows its place in the listing (the program seeds `random`,
so the draws come in the same order each run, but another machine lists the files in
another order). Next to it, a look-alike that predicts each image on its own: there the
order changes only the order of the printed lines."""
import os
import random
import sys

import torch
from PIL import Image
from torchvision.transforms.functional import to_tensor


def predict_with_crops(model, folder):
    for name in os.listdir(folder):  # expect: RPL402
        image = Image.open(os.path.join(folder, name))
        left = random.randint(0, 32)
        print(name, model(to_tensor(image.crop((left, 0, left + 224, 224)))[None]).argmax())


def predict_each(model, folder):
    for name in os.listdir(folder):
        image = Image.open(os.path.join(folder, name))
        print(name, model(to_tensor(image.resize((224, 224)))[None]).argmax())


if __name__ == "__main__":
    random.seed(0)
    net = torch.load(sys.argv[1], weights_only=False)
    net.eval()
    with torch.no_grad():
        predict_with_crops(net, sys.argv[2])
        predict_each(net, sys.argv[2])
