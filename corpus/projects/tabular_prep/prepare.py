# Build train/val/test parquet files from the raw export. Usage: python prepare.py
import time

import numpy as np
import pandas as pd

from common import seed_all
from noise import FeatureNoise
from splits import bootstrap_mean, make_splits

RAW = "data/raw/export.csv"
RUN_SEED = int(time.time())

seed_all(RUN_SEED)  # expect: RPL103
print("run seed", RUN_SEED)

df = pd.read_csv(RAW)
num_cols = sorted(c for c in df.columns if df[c].dtype.kind in "if")
df[num_cols] = df[num_cols].fillna(df[num_cols].median())

train_idx, val_idx, test_idx = make_splits(len(df), seed=1234)
augment = FeatureNoise(scale=0.02)
train = df.iloc[train_idx].copy()
train[num_cols] = augment(train[num_cols].to_numpy())
extra = train.sample(frac=0.1)

mean, std = bootstrap_mean(train["target"].to_numpy())
print(f"target mean {mean:.3f} ± {std:.3f}")
for name, part in [("train", pd.concat([train, extra])), ("val", df.iloc[val_idx]), ("test", df.iloc[test_idx])]:
    part.to_parquet(f"data/processed/{name}.parquet")
    print(name, len(part))
print("permutation check", np.random.permutation(5))
