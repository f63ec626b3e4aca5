"""Evaluates a freshly built model on noisy inputs.

The seed helper is re-exported by the package (`from .random import random_seed` in
toolkit/utils/__init__.py) and called as `utils.random_seed(...)`: torch, NumPy and
`random` are seeded before the model is built and the inputs are drawn. Clean.
"""
import argparse

import torch

from toolkit import utils
from toolkit.models import MLP

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=42)


def validate(args):
    utils.random_seed(args.seed)
    model = MLP()
    model.eval()
    with torch.inference_mode():
        inputs = utils.jitter(torch.zeros(16, 8))
        print(model(inputs).argmax(-1))


def main():
    validate(parser.parse_args())


if __name__ == "__main__":
    main()
