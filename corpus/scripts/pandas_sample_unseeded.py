"""Tabular data prep that splits a DataFrame with `sample` and never seeds NumPy.

`DataFrame.sample` / `Series.sample` / `GroupBy.sample` without `random_state` draw from
NumPy's global RNG, so the train/validation split changes every run. The replay buffer's
`sample`, `random.sample` on a seeded `random` and a `sample` given `random_state` are
look-alikes that draw nothing unseeded.
"""
import random

import numpy as np
import pandas as pd

random.seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)


class ReplayBuffer:
    def __init__(self, rows):
        self.rows = rows

    def sample(self, n):
        return self.rows[:n]


class Rows:
    def __init__(self, path):
        self.frame = pd.read_csv(path)

    def pick(self, n):
        return self.frame.sample(n)  # expect: RPL101


def balanced(frame: pd.DataFrame, per_class):
    return frame.groupby("label").sample(n=per_class)  # expect: RPL101


if __name__ == "__main__":
    df = pd.read_csv("reviews.csv")
    df = df.dropna(subset=["text"])
    train = df.sample(frac=0.8)  # expect: RPL101
    valid = df.drop(train.index)
    holdout = df["text"].sample(100)  # expect: RPL101
    fixed = df.sample(frac=0.1, random_state=13)
    also_fixed = df.sample(10, None, False, None, 13)
    buffer = ReplayBuffer(df.values)
    batch = buffer.sample(32)
    words = random.sample(list(df.columns), 2)
    arr = df.to_numpy()
    small = balanced(df, 50)
    picked = Rows("more.csv").pick(5)
    np.save("train.npy", train.to_numpy())
