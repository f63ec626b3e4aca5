"""Look-alike of spawn_flags_in_parent.py: each spawned worker turns determinism on itself,
through a helper, before it builds its model."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--gpus", type=int, default=2)


def make_deterministic(seed):
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


def main_worker(gpu, args):
    make_deterministic(args.seed)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:23456", rank=gpu, world_size=args.gpus)
    torch.cuda.set_device(gpu)
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10)).cuda(gpu)
    model = nn.parallel.DistributedDataParallel(model, device_ids=[gpu])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(100):
        images = torch.zeros(8, 3, 32, 32).cuda(gpu)
        loss = model(images).logsumexp(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    args = parser.parse_args()
    make_deterministic(args.seed)
    mp.spawn(main_worker, nprocs=args.gpus, args=(args,))
