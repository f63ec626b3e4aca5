"""Shard and checkpoint handling: listings sorted later, consumed order-free or taken
as the one match, next to listings whose order reaches the data."""
import glob
import os
import re
import sys


def shard_paths(data_root, split):
    shards = os.listdir(data_root)
    shards = [s for s in shards if split in s]
    shards = sorted(shards)
    return [os.path.join(data_root, s) for s in shards]


def latest_checkpoint(output_dir):
    latest = -1
    for ckpt in glob.glob(os.path.join(output_dir, "checkpoint-*.pth")):
        t = ckpt.split("-")[-1].split(".")[0]
        if t.isdigit():
            latest = max(int(t), latest)
    return latest


def next_run_id(outdir):
    prev_run_dirs = [x for x in os.listdir(outdir) if os.path.isdir(os.path.join(outdir, x))]
    prev_run_ids = [re.match(r"^\d+", x) for x in prev_run_dirs]
    prev_run_ids = [int(x.group()) for x in prev_run_ids if x is not None]
    return max(prev_run_ids, default=-1) + 1


def weights_file(checkpoint_dir):
    found = [f for f in os.listdir(checkpoint_dir) if f == "model.safetensors"]
    return os.path.join(checkpoint_dir, found[0]) if len(found) == 1 else None


def annotation_file(root):
    return glob.glob(os.path.join(root, "*.txt"))[0]


def image_split(image_dir):
    names = [n for n in os.listdir(image_dir) if n.endswith(".jpg")]  # expect: RPL402
    labels = [n.split("_")[0] for n in names]
    classes = sorted(set(labels))
    cut = int(0.8 * len(names))
    return names[:cut], names[cut:], classes


def preview_sample():
    return glob.glob("samples/*")[0]  # expect: RPL402


def resume_from(run_dir):
    return glob.glob(os.path.join(run_dir, "*.pt"))[-1]  # expect: RPL402


if __name__ == "__main__":
    print(shard_paths(sys.argv[1], "train"), latest_checkpoint(sys.argv[2]), next_run_id(sys.argv[2]))
    print(annotation_file(sys.argv[1]), image_split(sys.argv[1]), resume_from(sys.argv[2]))
    print(preview_sample(), weights_file(sys.argv[2]))
