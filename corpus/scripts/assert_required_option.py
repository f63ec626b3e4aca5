"""Fine-tuning entry point that asserts a required option before it trains.

`--base_model` defaults to "" only so that the assert can tell the user to pass it; the
documented command passes it, so the training after the assert is the default run's
(RPL101 at the model's first unseeded draw, RPL203 for the autotuning it turns on). An assert is a usage check, not a branch
that the default options turn off.
"""
import argparse

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base_model", default="")
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    assert args.base_model, "Please pass --base_model"
    torch.backends.cudnn.benchmark = True  # expect: RPL203
    device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: RPL302
    model = nn.Linear(32, 2).to(device)  # expect: RPL101
    state = torch.load(args.base_model) if args.base_model.endswith(".pt") else None
    if state is not None:
        model.load_state_dict(state, strict=False)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(args.epochs):
        loss = model(torch.ones(4, 32, device=device)).logsumexp(dim=1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
