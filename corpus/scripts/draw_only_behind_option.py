"""Saves attention maps of a pretrained network; with `--threshold` it also draws masks
in random colours. `--threshold` defaults to None, so the default run never reaches the
unseeded `random.shuffle` (no RPL101; look-alike: draw_behind_option_on_by_default.py)."""
import argparse
import colorsys
import random

import torch


def random_colors(n):
    colors = [colorsys.hsv_to_rgb(i / n, 1, 1) for i in range(n)]
    random.shuffle(colors)
    return colors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threshold", type=float, default=None)
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
