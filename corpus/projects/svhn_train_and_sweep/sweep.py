"""Random hyper-parameter search over ConvNet; shares net.py and loop.py with train.py.

Nothing is seeded here, so the ConvNet initialisation in net.py is unseeded on this path.
"""
import json

import numpy as np

from loop import fit, svhn_loaders
from net import ConvNet


def sample_config():
    return {
        "lr": float(10 ** np.random.uniform(-3, -1)),  # expect: RPL101
        "width": int(np.random.choice([16, 32, 48, 64])),  # expect: RPL101
        "p_drop": float(np.random.uniform(0.0, 0.5)),  # expect: RPL101
    }


def main(trials=12, epochs=3):
    train_loader, test_loader = svhn_loaders()
    results = []
    for trial in range(trials):
        cfg = sample_config()
        model = ConvNet(width=cfg["width"], p_drop=cfg["p_drop"])
        acc = fit(model, train_loader, test_loader, lr=cfg["lr"], epochs=epochs)
        results.append({**cfg, "acc": acc})
        print(trial, json.dumps(results[-1]))
    best = max(results, key=lambda r: r["acc"])
    print("best:", best)


if __name__ == "__main__":
    main()
