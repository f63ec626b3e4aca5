"""argparse subcommands with `set_defaults(func=...)`: `args.func(args)` runs the chosen
command's function, so the program reaches `pretrain` (a training program on CUDA),
seeded before the dispatch."""
import argparse

import torch

from commands import export, pretrain


def main():
    parser = argparse.ArgumentParser(prog="tool")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pretrain")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--steps", type=int, default=10)
    p.set_defaults(func=pretrain)
    e = sub.add_parser("export")
    e.add_argument("checkpoint")
    e.set_defaults(func=export)
    args = parser.parse_args()
    torch.manual_seed(0)
    args.func(args)


if __name__ == "__main__":
    main()
