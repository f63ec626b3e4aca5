"""Multi-process worker for a hyper-parameter sweep; each worker derives its own seed."""
import os
import random
import uuid

import numpy as np
import torch
import torch.nn as nn

EXPERIMENT = "bert-sst2-sweep-v2"


def seed_worker():
    random.seed(uuid.uuid4().int % 2**32)  # expect: RPL103
    np.random.seed(os.getpid() % 2**32)  # expect: RPL103
    seed = hash(f"{EXPERIMENT}-worker") % (2**31)
    torch.manual_seed(seed)  # expect: RPL103
    return seed


def objective(lr, dropout):
    model = nn.Sequential(nn.Linear(300, 128), nn.Tanh(), nn.Dropout(dropout), nn.Linear(128, 2))
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    x = torch.randn(512, 300)
    y = torch.randint(0, 2, (512,))
    for _ in range(100):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    worker_seed = seed_worker()
    lr = 10 ** np.random.uniform(-5, -2)
    dropout = random.choice([0.0, 0.1, 0.3])
    print(f"worker {os.getpid()} seed {worker_seed}: lr={lr:.2e} dropout={dropout} loss={objective(lr, dropout):.4f}")
