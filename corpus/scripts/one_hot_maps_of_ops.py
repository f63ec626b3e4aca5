"""Look-alike of one_hot_maps_of_sizes.py: the keys here are op names, so the ids the set
gives them follow `PYTHONHASHSEED`."""
import torch


def construct_maps(keys):
    d = dict()
    keys = list(set(keys))  # expect: RPL401
    for k in keys:
        d[k] = len(d)
    return d


op_map = construct_maps(keys=("conv3x3", "conv5x5", "skip"))


def encode(ops):
    out = torch.zeros(len(op_map))
    for op in ops:
        out[op_map[op]] = 1
    return out


if __name__ == "__main__":
    print(encode(["conv3x3", "skip"]))
