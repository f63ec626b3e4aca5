"""Generation: load trained weights, then sample. Trains nothing."""
import random

import torch

import utils
from model import Net
from train import parse_args


@torch.no_grad()
def generate(net, n):
    temperature = random.random()  # expect: RPL101
    return [net(torch.zeros(1, 3, 4, 4)) * temperature for _ in range(n)]


if __name__ == "__main__":
    args = parse_args()
    net = Net().cuda()
    net.load_state_dict(torch.load("net.pt"))
    print(generate(net, 4))
