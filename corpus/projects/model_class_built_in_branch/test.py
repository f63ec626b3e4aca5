"""pix2pixHD-style model choice: the default `--model hd` builds HDModel, whose feature
sampling draws from NumPy; the UI model's reseeding runs only for `--model ui`, so on a
default run NumPy is never seeded (RPL101 at the draw, RPL104 at the branch's build)."""
import argparse

from models.hd import HDModel
from models.ui import UIModel

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="hd")
opt = parser.parse_args()
if opt.model == "hd":
    model = HDModel()
else:
    model = UIModel()  # expect: RPL104
model.initialize(opt)
print(model.sample_features(10))
