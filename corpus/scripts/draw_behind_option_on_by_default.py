"""The look-alike of draw_only_behind_option.py: `--threshold` defaults to 0.6, so the
default run draws the mask colours with the unseeded `random.shuffle` (RPL101)."""
import argparse
import colorsys
import random

import torch


def random_colors(n):
    colors = [colorsys.hsv_to_rgb(i / n, 1, 1) for i in range(n)]
    random.shuffle(colors)  # expect: RPL101
    return colors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threshold", type=float, default=0.6)
    parser.add_argument("--heads", type=int, default=6)
    args = parser.parse_args()
    model = torch.hub.load("facebookresearch/dino:main", "dino_vits8")
    model.eval()
    attentions = model.get_last_selfattention(torch.load("image.pt"))
    torch.save(attentions, "attn.pt")
    if args.threshold is not None:
        print(random_colors(args.heads))


if __name__ == "__main__":
    main()
