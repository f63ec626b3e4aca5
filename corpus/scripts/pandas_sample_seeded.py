"""Look-alike of pandas_sample_unseeded.py: NumPy is seeded before the DataFrame is
sampled, and `DataFrame.sample` without `random_state` draws from NumPy's global RNG, so
`np.random.seed` fixes the split."""
import numpy as np
import pandas as pd


def split(path, seed=0):
    np.random.seed(seed)
    df = pd.read_csv(path)
    train = df.sample(frac=0.8)
    valid = df.drop(train.index)
    return train, valid


if __name__ == "__main__":
    train, valid = split("reviews.csv")
    np.save("train.npy", train.to_numpy())
