"""A synthesis demo that reseeds before each model it runs, but only when `--seed` is
given, which it is not by default: both seeding calls are skipped by the same default,
one cause, reported once (at the first, the second a related location; each skipped
call is labelled, as the corpus labels a group)."""
import argparse

import numpy as np
import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None, help="seed for a deterministic run")
    parser.add_argument("--out", default="out.npy")
    args = parser.parse_args()

    if args.seed is not None:
        torch.manual_seed(args.seed)  # expect: RPL104
    encoder = torch.nn.GRU(16, 32, batch_first=True)
    embedding = encoder(torch.randn(1, 20, 16))[1]

    if args.seed is not None:
        torch.manual_seed(args.seed)  # expect: RPL104
    vocoder = torch.nn.Linear(32, 256)
    audio = vocoder(embedding).detach().numpy()
    np.save(args.out, audio)


if __name__ == "__main__":
    main()
