"""multiprocessing.Process with the spawn start method: the workers re-import the module and
start from OS entropy, whatever the parent seeded."""
import multiprocessing as mp

import numpy as np


def simulate(worker_id, out):
    out.put((worker_id, np.random.normal(size=4).sum()))


if __name__ == "__main__":
    mp.set_start_method("spawn")
    np.random.seed(1234)
    queue = mp.Queue()
    workers = [mp.Process(target=simulate, args=(i, queue)) for i in range(4)]  # expect: RPL101
    for w in workers:
        w.start()
    print(sorted(queue.get() for _ in workers))
