"""Submits a fine-tuning job to a cluster: the job object's `__call__` runs there, in a
call no line of the project makes. It loads pretrained weights, then trains them in its
own loop: a training program, whose cuDNN convolutions train on the GPU."""
import argparse

import submitit

from job import FinetuneJob

parser = argparse.ArgumentParser()
parser.add_argument("--checkpoint", default="pretrained.pt")
parser.add_argument("--epochs", type=int, default=10)

if __name__ == "__main__":
    args = parser.parse_args()
    executor = submitit.AutoExecutor(folder="logs")
    executor.submit(FinetuneJob(args))
