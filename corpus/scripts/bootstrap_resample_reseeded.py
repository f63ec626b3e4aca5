"""Bootstrap confidence intervals for a saved model's validation scores.

The resampling generators are built first and seeded by the statement after; one is
drawn from before its seed call and one takes its seed from an option left at None.
"""

import argparse
import random

import numpy as np
import torch


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scores", default="scores.npy")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--split-seed", type=int, default=None)
    parser.add_argument("--boot-seed", type=int, default=7)
    return parser.parse_args()


def bootstrap(scores, rounds, seed):
    rs = np.random.RandomState()
    rs.seed(seed)
    means = []
    for _ in range(rounds):
        idx = rs.randint(0, len(scores), len(scores))
        means.append(scores[idx].mean())
    return np.percentile(means, [2.5, 97.5])


def shuffled_halves(n, args):
    split = np.random.default_rng(args.split_seed)  # expect: RPL102
    order = split.permutation(n)
    return order[: n // 2], order[n // 2:]


def jitter(n):
    picker = random.Random()  # expect: RPL102
    first = picker.random()
    picker.seed(5)
    return [first] + [picker.random() for _ in range(n - 1)]


def main():
    args = parse_args()
    scores = np.load(args.scores)
    g = torch.Generator()
    g.manual_seed(args.boot_seed)
    perm = torch.randperm(len(scores), generator=g)
    boot = np.random.default_rng(args.boot_seed)
    print(bootstrap(scores[perm.numpy()], args.rounds, args.boot_seed))
    print(shuffled_halves(len(scores), args), boot.random(), jitter(3))


if __name__ == "__main__":
    main()
