"""5-fold MLP ensemble on a tabular task; every fold re-seeds before building its model."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
from sklearn.model_selection import KFold
from torch.utils.data import DataLoader, SubsetRandomSampler, TensorDataset


def build_mlp(d_in, width=128, depth=3, p=0.1):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.BatchNorm1d(width), nn.SiLU(), nn.AlphaDropout(p)]
        d = width
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


def fit_fold(model, loader, epochs):
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for _ in range(epochs):
        for xb, yb in loader:
            loss = nn.functional.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=10)
    args = ap.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    data = np.load("data/higgs_small.npz")
    X = torch.tensor(data["X"], dtype=torch.float32)
    y = torch.tensor(data["y"], dtype=torch.float32)
    ds = TensorDataset(X, y)

    kf = KFold(n_splits=5, shuffle=True, random_state=args.seed)
    models = []
    for fold, (train_idx, val_idx) in enumerate(kf.split(X)):
        torch.manual_seed(args.seed + fold)
        loader = DataLoader(ds, batch_size=256, sampler=SubsetRandomSampler(train_idx))
        models.append(fit_fold(build_mlp(X.shape[1]), loader, args.epochs))
        with torch.no_grad():
            acc = ((models[-1](X[val_idx]).squeeze(1) > 0).float() == y[val_idx]).float().mean()
        print(f"fold {fold}: acc {acc:.4f}")

    holdout = random.sample(range(len(ds)), 1000)
    with torch.no_grad():
        preds = torch.stack([m(X[holdout]).squeeze(1) for m in models]).mean(0)
    print("ensemble acc", ((preds > 0).float() == y[holdout]).float().mean().item())


if __name__ == "__main__":
    main()
