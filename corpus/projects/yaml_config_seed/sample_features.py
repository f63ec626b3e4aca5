"""Random projections whose seed comes from a YAML file named by an option's default:
`seed: null` there makes `np.random.seed(None)`, a seed from OS entropy."""
import argparse

import numpy as np
import yaml

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="configs/sampler.yaml")
args = parser.parse_args()

with open(args.config) as f:
    cfg = yaml.safe_load(f)

np.random.seed(cfg["seed"])  # expect: RPL103
projection = np.random.randn(128, cfg["features"])
np.save("projection.npy", projection)
