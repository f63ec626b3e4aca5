"""Look-alike of spawn_process_start_method.py: the default start method (fork on Linux)
copies the parent's seeded state into each worker, and each worker reseeds with its id."""
import multiprocessing as mp

import numpy as np


def simulate(worker_id, out):
    np.random.seed(1234 + worker_id)
    out.put((worker_id, np.random.normal(size=4).sum()))


if __name__ == "__main__":
    np.random.seed(1234)
    queue = mp.Queue()
    workers = [mp.Process(target=simulate, args=(i, queue)) for i in range(4)]
    for w in workers:
        w.start()
    print(sorted(queue.get() for _ in workers))
