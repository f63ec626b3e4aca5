"""One-hot maps for an accuracy predictor: the keys are kernel sizes and depths (ints),
deduplicated through a set; ints hash the same in every process."""
import torch


def construct_maps(keys):
    d = dict()
    keys = list(set(keys))
    for k in keys:
        d[k] = len(d)
    return d


ks_map = construct_maps(keys=(3, 5, 7))
depth_map = construct_maps(keys=(2, 3, 4))


def encode(ks_list, depths):
    out = torch.zeros(len(ks_map) + len(depth_map))
    for k in ks_list:
        out[ks_map[k]] = 1
    for d in depths:
        out[len(ks_map) + depth_map[d]] = 1
    return out


if __name__ == "__main__":
    print(encode([3, 7], [2]))
