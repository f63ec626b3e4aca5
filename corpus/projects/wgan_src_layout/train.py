"""WGAN-GP on a 2-D mixture of Gaussians (src/ layout, absolute imports)."""
import argparse

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from src.models.wgan import Critic, Generator, gradient_penalty
from src.utils.seed import fix_seed, worker_init_fn


def mixture(n, modes=8, radius=2.0, std=0.02):
    angles = 2 * np.pi * np.random.randint(0, modes, n) / modes
    centers = np.stack([radius * np.cos(angles), radius * np.sin(angles)], axis=1)
    return (centers + std * np.random.randn(n, 2)).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--n-critic", type=int, default=5)
    args = ap.parse_args()

    fix_seed(args.seed)
    data = torch.from_numpy(mixture(100_000))
    loader = DataLoader(TensorDataset(data), batch_size=256, shuffle=True, drop_last=True,
                        num_workers=2, worker_init_fn=worker_init_fn)
    G, D = Generator(), Critic()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
    eval_gen = torch.Generator().manual_seed(0)

    it = 0
    while it < args.iters:
        for (real,) in loader:
            fake = G.sample(real.size(0)).detach()
            loss_d = D(fake).mean() - D(real).mean() + 10.0 * gradient_penalty(D, real, fake)
            opt_d.zero_grad()
            loss_d.backward()
            opt_d.step()
            if it % args.n_critic == 0:
                loss_g = -D(G.sample(real.size(0))).mean()
                opt_g.zero_grad()
                loss_g.backward()
                opt_g.step()
            it += 1
        print(it, loss_d.item(), G.sample(4, generator=eval_gen).tolist())


if __name__ == "__main__":
    main()
