"""Times each training epoch with `time.perf_counter` and `timeit`: a timed program that
trains, so its model is what it produces, and the weights are drawn from an unseeded
torch."""
import timeit

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))  # expect: RPL101
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.ones(256, 32)
target = torch.zeros(256, 1)


def epoch():
    loss = nn.functional.mse_loss(model(data), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    print("seconds per epoch", timeit.timeit(epoch, number=20) / 20)
    torch.save(model.state_dict(), "model.pt")
