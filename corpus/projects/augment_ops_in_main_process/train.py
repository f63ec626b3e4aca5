"""The look-alike: the same transform applied by hand in the main process, to preview a
few augmented images. Its operations draw from `random`, which nothing seeds."""
import torch
from PIL import Image

from randaug.ops import RandAugment


def main():
    torch.manual_seed(0)
    augment = RandAugment(2, 9)
    for i in range(4):
        augment(Image.open("sample.png")).save(f"preview_{i}.png")


if __name__ == "__main__":
    main()
