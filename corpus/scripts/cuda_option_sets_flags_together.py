"""A recommendation model trained on the CPU unless `--use-gpu` is passed. The branch that
moves it to the GPU also makes cuDNN deterministic, so every run that uses cuDNN has
the flag; a timing helper synchronises CUDA only when given the same test, and the
evaluation loop only when its output already lives on the GPU.

Nothing is reported: no default run touches CUDA, and asking for it sets the flag."""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn


def time_wrap(use_gpu):
    if use_gpu:
        torch.cuda.synchronize()
    return time.time()


class Ranker(nn.Module):
    def __init__(self, features, hidden):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 3, padding=1)
        self.head = nn.Sequential(nn.Linear(4 * features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.head(self.conv(x.unsqueeze(1)).flatten(1))


def evaluate(model, batches):
    total = 0.0
    with torch.no_grad():
        for x, y in batches:
            out = model(x)
            if out.is_cuda:
                torch.cuda.synchronize()
            total += float(nn.functional.mse_loss(out.squeeze(1), y))
    return total / len(batches)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--use-gpu", action="store_true", default=False)
    parser.add_argument("--seed", type=int, default=123)
    args = parser.parse_args()
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    use_gpu = args.use_gpu and torch.cuda.is_available()
    if use_gpu:
        torch.cuda.manual_seed_all(args.seed)
        torch.backends.cudnn.deterministic = True
        device = torch.device("cuda", 0)
    else:
        device = torch.device("cpu")
    model = Ranker(16, 32).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    data = [(torch.from_numpy(np.random.rand(8, 16)).float().to(device), torch.rand(8, device=device)) for _ in range(4)]
    for epoch in range(3):
        start = time_wrap(use_gpu)
        for x, y in data:
            loss = nn.functional.mse_loss(model(x).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, time_wrap(use_gpu) - start, evaluate(model, data))


if __name__ == "__main__":
    main()
