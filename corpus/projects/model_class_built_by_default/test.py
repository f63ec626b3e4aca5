"""The look-alike: `--model ui` is the default, so the UI model is built and its seeding
runs on the default run; the HD model's draw runs only for `--model hd`."""
import argparse

from models.hd import HDModel
from models.ui import UIModel

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="ui")
opt = parser.parse_args()
if opt.model == "hd":
    model = HDModel()
else:
    model = UIModel()
model.initialize(opt)
print(model.sample_features(10))
