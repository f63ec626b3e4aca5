"""Samples from a trained autoencoder built from the configuration its `--config`
option names by default (configs/ae.yaml)."""
import argparse
import torch
from omegaconf import OmegaConf
from ldm.util import instantiate_from_config

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="configs/ae.yaml")
opt = parser.parse_args()
config = OmegaConf.load(opt.config)
model = instantiate_from_config(config.model)
model.load_state_dict(torch.load("ae.ckpt"))
print(model.sample(4))
