"""StyleGAN-style distributed training: each rank seeds torch with its own rank (so the
noise and augmentations differ per rank on purpose), then rank 0's parameters are
broadcast to every replica before training. The replicas start equal: nothing for
RPL404 to report."""
import torch
import torch.distributed as dist
import torch.nn as nn


def params_and_buffers(module):
    return list(module.parameters()) + list(module.buffers())


def training_loop(rank, num_gpus, random_seed=0):
    torch.manual_seed(random_seed * num_gpus + rank)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    G = nn.Sequential(nn.Linear(512, 512), nn.LeakyReLU(0.2), nn.Linear(512, 3 * 16 * 16)).cuda()
    if num_gpus > 1:
        for param in params_and_buffers(G):
            torch.distributed.broadcast(param, src=0)
    opt = torch.optim.Adam(G.parameters(), lr=2e-3)
    for step in range(100):
        z = torch.randn(32, 512, device="cuda")
        loss = G(z).square().mean()
        opt.zero_grad()
        loss.backward()
        for param in G.parameters():
            dist.all_reduce(param.grad)
        opt.step()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    training_loop(dist.get_rank(), dist.get_world_size())
