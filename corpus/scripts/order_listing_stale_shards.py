"""Checkpoint saving in a distributed run: stale shards of an earlier save are deleted
by the main process (each file on its own), next to a look-alike that moves a random
tenth of the files to a validation folder, one draw per file in listing order."""
import os
import random
import re
import shutil
import sys

import torch.distributed as dist

SHARD = re.compile(r"(.*?)-\d{5}-of-\d{5}")


class ProcessState:
    def __init__(self):
        self.is_main_process = not dist.is_initialized() or dist.get_rank() == 0


def remove_stale_shards(save_dir, weights_name, keep):
    for filename in os.listdir(save_dir):
        full = os.path.join(save_dir, filename)
        stem = filename.replace(".bin", "")
        if (
            filename.startswith(weights_name.replace(".bin", ""))
            and filename not in keep
            and SHARD.fullmatch(stem) is not None
            and ProcessState().is_main_process
        ):
            os.remove(full)


def remove_on_rank_zero(save_dir):
    for filename in os.listdir(save_dir):
        if filename.endswith(".tmp") and dist.get_rank() == 0:
            os.remove(os.path.join(save_dir, filename))


def hold_out(data_dir, val_dir):
    for filename in os.listdir(data_dir):  # expect: RPL402
        if random.random() < 0.1:
            shutil.move(os.path.join(data_dir, filename), val_dir)


if __name__ == "__main__":
    random.seed(0)
    remove_stale_shards(sys.argv[1], "pytorch_model.bin", {"pytorch_model-00001-of-00002.bin"})
    remove_on_rank_zero(sys.argv[1])
    hold_out(sys.argv[2], sys.argv[3])
