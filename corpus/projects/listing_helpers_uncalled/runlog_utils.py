import glob
import os

import pandas


def latest_checkpoint(run_dir):
    checkpoints = glob.glob(os.path.join(run_dir, "ckpt_*.pt"))  # expect: RPL402
    return checkpoints[-1]


def load_monitor_frames(run_dir):
    frames = []
    for name in glob.glob(os.path.join(run_dir, "*.monitor.csv")):
        frames.append(pandas.read_csv(name))
    return frames[0]
