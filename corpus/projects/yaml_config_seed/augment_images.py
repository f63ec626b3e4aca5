"""Look-alike: the seed read from a YAML file loaded from a literal path is set there
(`augment.seed: 7`), and the conditional seeding runs by default."""
import random

import yaml

config = yaml.safe_load(open("configs/augment.yaml"))
if config["augment"]["seed"] is not None:
    random.seed(config["augment"]["seed"])
flip = [random.random() < 0.5 for _ in range(100)]
print(sum(flip))
