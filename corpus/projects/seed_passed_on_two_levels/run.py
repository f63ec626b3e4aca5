"""An RL-style entry point: `--seed` (default 7) goes to `learn(seed=...)`, which passes it
on to `set_global_seeds(seed)`, whose seeding runs when a seed is given.

The seed reaches the helper through two calls, so its `if seed is not None:` is true on a
default run: NumPy and `random` are seeded before the draws (look-alike of
seed_passed_on_none, where `--seed` defaults to None: no RPL104 here).
"""
import argparse

from agent import learn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=7)
parser.add_argument("--steps", type=int, default=100)
args = parser.parse_args()
print(sum(learn(args.steps, seed=args.seed)))
