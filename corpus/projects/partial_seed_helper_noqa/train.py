import numpy as np
import torch

from data import jitter
from utils import set_seed

if __name__ == "__main__":
    set_seed(0)
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.from_numpy(jitter(np.ones((4, 3))).astype("float32"))
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
