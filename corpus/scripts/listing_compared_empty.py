"""An image dataset that checks its folders are not empty by comparing the listing with
`0` and `[]` (order-free: only emptiness is tested), then reads the files in natural
order; the look-alike, the last loop, averages the first ten files of an unsorted
listing, whose order picks which ten."""
import os

import numpy as np
from natsort import natsorted


def load(folder):
    if os.listdir(folder) == 0:
        raise RuntimeError("image folder is empty")
    if os.listdir(folder) != []:
        print("reading", folder)
    return [np.load(os.path.join(folder, name)) for name in natsorted(os.listdir(folder))]


if __name__ == "__main__":
    images = load("data/train")
    print(sum(image.mean() for image in images) / len(images))
    first = [np.load(os.path.join("data/val", name)) for name in os.listdir("data/val")[:10]]  # expect: RPL402
    print(np.mean([f.mean() for f in first]))
