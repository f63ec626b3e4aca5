"""Fetches every released checkpoint of a set of names, each to its own file: the set's
order decides only the download order (look-alike: the list of names written below
keeps the set's order)."""
import os

import torch
from torchvision.datasets.utils import download_url

RELEASED = {"dit-256.pt", "dit-512.pt"}


def download(name):
    path = f"pretrained/{name}"
    if not os.path.isfile(path):
        os.makedirs("pretrained", exist_ok=True)
        download_url(f"https://example.org/models/{name}", "pretrained")
    return torch.load(path, map_location="cpu")


if __name__ == "__main__":
    for name in RELEASED:
        download(name)
    with open("pretrained/index.txt", "w") as f:
        f.write("\n".join(RELEASED))  # expect: RPL401
