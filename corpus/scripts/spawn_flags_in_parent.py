"""Multi-GPU launcher that turns determinism on in the parent, then spawns one training
process per GPU: each spawned worker is a fresh interpreter where both flags are off."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--gpus", type=int, default=2)


def main_worker(gpu, args):
    torch.manual_seed(args.seed)
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


def main():
    args = parser.parse_args()
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    mp.spawn(main_worker, nprocs=args.gpus, args=(args,))  # expect: RPL301, RPL302


if __name__ == "__main__":
    main()
