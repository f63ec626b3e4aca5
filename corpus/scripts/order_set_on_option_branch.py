"""A label set listed only when `--export-labels` is given (off by default): a default
run never takes that order. The class map the model trains with does, and is reported."""
import argparse
import json

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--export-labels", action="store_true")
args = parser.parse_args()

rows = [line.rstrip("\n").split("\t") for line in open("train.tsv")]
labels = set(row[1] for row in rows)
if args.export_labels:
    json.dump(list(labels), open("labels.json", "w"))
index = {name: i for i, name in enumerate(labels)}  # expect: RPL401
torch.manual_seed(0)
targets = torch.tensor([index[row[1]] for row in rows])
model = torch.nn.Linear(1, len(index))
print(model(targets.float().unsqueeze(1)).shape)
