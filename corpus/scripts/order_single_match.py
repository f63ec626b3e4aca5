"""Load a checkpoint folder: the index file is looked up by suffix and taken only when
exactly one matches, so the folder order cannot change which file is read. Taking
element 0 when several may match, or outside the length check, depends on it."""
import json
import os

import torch


def load_checkpoint_files(folder):
    index_files = [f for f in os.listdir(folder) if f.endswith(".index.json")]
    if len(index_files) == 0:
        raise ValueError(f"{folder} has no index file")
    elif len(index_files) == 1:
        with open(os.path.join(folder, index_files[0])) as handle:
            index = json.load(handle)
    else:
        raise ValueError(f"{folder} has several index files")
    shards = sorted(set(index["weight_map"].values()))
    return [torch.load(os.path.join(folder, shard)) for shard in shards]


def first_weights(folder):
    weights = [f for f in os.listdir(folder) if f.endswith(".bin")]  # expect: RPL402
    if len(weights) > 1:
        print("several weight files, taking the first")
    return torch.load(os.path.join(folder, weights[0]))


def any_weights(folder):
    weights = [f for f in os.listdir(folder) if f.endswith(".safetensors")]  # expect: RPL402
    if len(weights) != 1:
        return os.path.join(folder, weights[0])
    return None
