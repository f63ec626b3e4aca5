"""Look-alike of spawn_seed_in_parent.py: the seed sits at the module's top level, outside
the `__main__` block, so every spawned child runs it again when it re-imports the module;
each worker starts seeded."""
import numpy as np
import torch
import torch.multiprocessing as mp
import torch.nn as nn

SEED = 1234
torch.manual_seed(SEED)
np.random.seed(SEED)


def main_worker(rank, world_size):
    model = nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        x = torch.from_numpy(np.random.rand(8, 16).astype("float32"))
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    mp.spawn(main_worker, nprocs=2, args=(2,))
