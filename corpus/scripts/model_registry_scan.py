"""Builds a registry of model configurations from JSON files found in several folders.
The loop keeps a file when `all(...)` finds its keys (a test of the entry's own values)
and stores it under its own stem, then the registry is rebuilt in sorted order: the
listing's order reaches nothing. Printing each checkpoint with a comprehension written as
a statement shows them, like a loop of prints. The look-alike collects the file names
a loop keeps with `any(...)` into a list and trains on its first entries, in the file
system's order."""
import json
from pathlib import Path

import torch

CONFIG_DIRS = [Path("configs/vision"), Path("configs/text")]
REGISTRY = {}

config_files = []
for folder in CONFIG_DIRS:
    config_files.extend(folder.glob("*.json"))
for path in config_files:
    with open(path) as f:
        cfg = json.load(f)
    if all(key in cfg for key in ("embed_dim", "layers")):
        REGISTRY[path.stem] = cfg
REGISTRY = {k: REGISTRY[k] for k in sorted(REGISTRY)}

checkpoints = list(Path("ckpt").glob("*.pt"))
[print(c) for c in checkpoints]

shards = []
for path in Path("data").glob("*.pt"):  # expect: RPL402
    if any(tag in path.name for tag in ("train", "extra")):
        shards.append(path)
torch.manual_seed(0)
model = torch.nn.Linear(REGISTRY["base"]["embed_dim"], 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for shard in shards[:4]:
    x = torch.load(shard)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
