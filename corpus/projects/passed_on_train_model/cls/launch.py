"""Runs a job on one process or several: the function is passed in, not called here."""
import torch.multiprocessing as mp


def _worker(rank, fun):
    fun()


def multi_proc_run(num_proc, fun):
    if num_proc > 1:
        mp.spawn(_worker, args=(fun,), nprocs=num_proc)
    else:
        fun()
