"""Asynchronous advantage actor-critic: one shared network, several training processes
updating it without locks, plus one process that only evaluates it."""
import argparse

import torch
import torch.multiprocessing as mp

from evaluate import evaluate
from model import ActorCritic
from shared_optim import SharedAdam
from train import train

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--num-processes", type=int, default=4)
parser.add_argument("--lr", type=float, default=1e-4)

if __name__ == "__main__":
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    shared_model = ActorCritic(4, 2)
    shared_model.share_memory()
    optimizer = SharedAdam(shared_model.parameters(), lr=args.lr)
    optimizer.share_memory()
    counter = mp.Value("i", 0)
    lock = mp.Lock()

    processes = []
    p = mp.Process(target=evaluate, args=(args.num_processes, args, shared_model, counter))
    p.start()
    processes.append(p)
    for rank in range(args.num_processes):
        p = mp.Process(target=train, args=(rank, args, shared_model, counter, lock, optimizer))  # expect: RPL405
        p.start()
        processes.append(p)
    for p in processes:
        p.join()
