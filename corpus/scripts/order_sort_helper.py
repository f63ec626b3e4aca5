"""Resume from the newest checkpoint of a run folder: the listing goes through a
project's natural-sort helper (a sort by the step number in the name), inline or
qualified through the module, so the folder order does not reach the choice. Taking
the first of an unsorted folder listing does."""
import os

import tensorflow as tf
from flax.training import checkpoints

import run_utils


def newest_checkpoint(folder):
    return checkpoints.natural_sort(tf.io.gfile.glob(os.path.join(folder, "checkpoint_*")))[-1]


def oldest_checkpoint(folder):
    return run_utils.natural_sort(os.listdir(folder))[0]


def any_checkpoint(folder):
    return os.listdir(folder)[-1]  # expect: RPL402


state = checkpoints.restore_checkpoint(newest_checkpoint("runs/imagenet"), target=None)
print(oldest_checkpoint("runs/imagenet"), any_checkpoint("runs/imagenet"), state)
