"""Hyper-parameters come from a JSON file; `--seed` overrides the file's seed when given."""
import argparse
import json
import random

import numpy as np
import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", help="a JSON file of parameters")
    parser.add_argument("--seed", help="overrides the seed of the configuration")
    parser.add_argument("--epochs", help="overrides the epochs of the configuration")
    args = parser.parse_args()
    with open(args.config) as f:
        config = json.load(f)
    params = config["params"]
    if args.seed is not None:
        params["seed"] = int(args.seed)
    if args.epochs is not None:
        params["epochs"] = int(args.epochs)

    random.seed(params["seed"])
    np.random.seed(params["seed"])
    torch.manual_seed(params["seed"])

    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(params["epochs"]):
        x = torch.randn(16, 8)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
