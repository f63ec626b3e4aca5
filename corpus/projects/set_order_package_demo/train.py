"""Trains a character model with the package's (sorted) vocabulary."""
import sys

import torch

from textkit.vocab import build_vocab

torch.manual_seed(0)
text = open(sys.argv[1]).read()
stoi = build_vocab(text)
ids = torch.tensor([stoi[c] for c in text])
embed = torch.nn.Embedding(len(stoi), 16)
optimizer = torch.optim.SGD(embed.parameters(), lr=0.1)
loss = embed(ids).pow(2).mean()
loss.backward()
optimizer.step()
