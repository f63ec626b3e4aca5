"""Look-alike: the helper skips seeding when given None, but this program passes
`--seed`, which defaults to 42 (positionally): the default run is seeded."""
import argparse

import torch

from utils import set_seed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    set_seed(args.seed)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.ones(2, 4)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
