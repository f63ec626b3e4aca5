"""The look-alike: the same star import, but the seed comes after the model is built,
so its embedding is initialised from an unseeded torch."""
import argparse

import torch.nn as nn
import torch.optim as optim

from common import *

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1111)
args = parser.parse_args()

data, vocab = load_corpus("data/corpus.txt")
model = nn.Sequential(nn.Embedding(vocab, 64), nn.Linear(64, vocab))  # expect: RPL101
torch.manual_seed(args.seed)
optimizer = optim.SGD(model.parameters(), lr=0.1)
batches = batchify(data, 16)
for step in range(batches.size(1) - 1):
    loss = nn.functional.cross_entropy(model(batches[:, step]), batches[:, step + 1])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
