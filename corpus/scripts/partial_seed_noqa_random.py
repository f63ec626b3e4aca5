"""A data-split script that seeds NumPy but shuffles with Python's `random`, never seeded;
the draw carries `# noqa: RPL101`, so the partial seeding is reported as RPL105 at the
seeding call, where `random.seed` belongs."""
import json
import random

import numpy as np

np.random.seed(1)  # expect: RPL105
files = [f"shard-{i}.npy" for i in range(8)]
random.shuffle(files)  # noqa: RPL101
noise = np.random.normal(size=8)
with open("split.json", "w") as handle:
    json.dump({"train": files[:6], "test": files[6:], "noise": noise.tolist()}, handle)
