"""Entry point: hands `trainer.train_model` to the launcher. Its seeds come first in its
own body, so its draws are seeded: nothing to report."""
import argparse

import cls.launch as launch
import cls.trainer as trainer

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_gpus", type=int, default=1)
    args = parser.parse_args()
    launch.multi_proc_run(num_proc=args.num_gpus, fun=trainer.train_model)
