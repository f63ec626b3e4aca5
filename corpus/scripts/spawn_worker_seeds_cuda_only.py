"""A GAN vocoder trained with one process per GPU: the parent seeds torch, then spawns
the workers, which seed only CUDA's generators. The generator's and discriminator's
weights are drawn on the CPU in each fresh process, from a generator nobody seeded."""
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn.functional as F


def train(rank, args):
    torch.cuda.manual_seed(args.seed)
    device = torch.device("cuda:{:d}".format(rank))
    generator = torch.nn.Sequential(torch.nn.Linear(80, 256), torch.nn.Tanh()).to(device)
    optimizer = torch.optim.AdamW(generator.parameters(), lr=2e-4)
    for step in range(100):
        mel = torch.ones(16, 80, device=device)
        loss = F.l1_loss(generator(mel), torch.zeros(16, 256, device=device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    mp.spawn(train, nprocs=torch.cuda.device_count(), args=(args,))  # expect: RPL101
