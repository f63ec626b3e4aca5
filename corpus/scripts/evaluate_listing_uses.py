"""Evaluation of a trained segmentation model over folders of images: listings stored in
names and handed on whole (printed, given to a dataset that the loader walks through,
given to a viewer process) only order the outputs, next to look-alikes that pick files by
their place in the listing (a slice, a random sample, images paired with masks listed
apart, a loop that stops early, the first entry of a whole folder): which files are
scored then differs between machines."""
import glob
import os
import random
import subprocess
import sys

import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms

to_tensor = transforms.ToTensor()


class Images(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return to_tensor(Image.open(self.paths[i]).convert("RGB")), self.paths[i]


def main():
    model = torch.load(sys.argv[1], map_location="cpu", weights_only=False)
    model.eval()
    random.seed(0)

    shown = glob.glob(os.path.join(sys.argv[2], "*.png"))
    print("scoring", shown)

    every = glob.glob(os.path.join(sys.argv[3], "*.png"))
    with torch.no_grad():
        for images, names in DataLoader(Images(every), batch_size=8):
            for name, mask in zip(names, model(images).argmax(1)):
                Image.fromarray(mask.byte().numpy()).save(name + ".mask.png")

    viewed = glob.glob(os.path.join(sys.argv[4], "*.mask.png"))
    subprocess.run(["feh", "--montage"] + viewed, check=False)

    first = glob.glob(os.path.join(sys.argv[5], "*.png"))  # expect: RPL402
    quick = first[:50]

    pool = os.listdir(sys.argv[6])  # expect: RPL402
    picked = random.sample(pool, 20)

    images = glob.glob(os.path.join(sys.argv[7], "images", "*.png"))  # expect: RPL402
    masks = glob.glob(os.path.join(sys.argv[7], "masks", "*.png"))  # expect: RPL402
    pairs = list(zip(images, masks))

    scored = glob.glob(os.path.join(sys.argv[8], "*.png"))  # expect: RPL402
    count = 0
    for path in scored:
        print(path, model(to_tensor(Image.open(path)).unsqueeze(0)).argmax(1).sum().item())
        count += 1
        if count == 10:
            break

    folder = os.listdir(sys.argv[9])  # expect: RPL402
    sample = folder[0]
    print(len(quick), len(picked), len(pairs), sample)


if __name__ == "__main__":
    main()
