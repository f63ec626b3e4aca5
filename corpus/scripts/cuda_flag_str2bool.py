"""`type=str2bool` with a string default: argparse passes "False" through the converter, so
the default run is on the CPU; `--use_gpu true` (with a GPU present) selects CUDA.
`set_defaults` overrides an argument's own default: deterministic mode is on by default
(no RPL301/RPL302), so, on CUDA, `CUBLAS_WORKSPACE_CONFIG` is missing (RPL303)."""
import argparse

import torch
import torch.nn as nn


def str2bool(v):
    return str(v).lower() in ("yes", "true", "t", "1")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--use_gpu", type=str2bool, default="False")
    parser.add_argument("--deterministic", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(deterministic=True)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(args.deterministic)  # expect: RPL303
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU())
    if args.use_gpu and torch.cuda.is_available():
        model.cuda()
    optimizer = torch.optim.Adam(model.parameters())
    loss = model(torch.zeros(2, 3, 8, 8)).mean()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
