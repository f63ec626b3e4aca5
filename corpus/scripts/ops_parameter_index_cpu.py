"""Character-level MLP language model trained on the CPU (makemore style): the embedding
table is a tensor that requires grad, indexed by a batch of integer token ids. The
backward of `C[xb]` adds the gradient rows with index_put_(accumulate=True); on the CPU
that kernel runs parallel atomic float adds, so the embedding gradient differs between
runs unless deterministic mode is on. Reads with a boolean mask, an arange, a plain
integer, or writes into the table do not accumulate anything."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(42)
torch.manual_seed(42)

words = open("names.txt").read().splitlines()
chars = sorted(set("".join(words)))
stoi = {c: i + 1 for i, c in enumerate(chars)}
X, Y = [], []
for w in words:
    context = [0, 0, 0]
    for ch in w + ".":
        X.append(context)
        Y.append(stoi.get(ch, 0))
        context = context[1:] + [stoi.get(ch, 0)]
X = torch.tensor(X, dtype=torch.long)
Y = torch.tensor(Y)

C = torch.randn((27, 10), requires_grad=True)
W1 = torch.randn((30, 200), requires_grad=True)
W2 = torch.randn((200, 27), requires_grad=True)


class PositionalMixer(nn.Module):
    def __init__(self, dim=10, length=3):
        super().__init__()
        self.pos = nn.Parameter(torch.zeros(length, dim))
        self.gate = nn.Linear(dim, dim)

    def forward(self, emb, ids):
        order = torch.argsort(ids, dim=1)
        shuffled = self.pos[order]  # expect: RPL201
        every = self.pos[torch.arange(self.pos.shape[0])]
        first = self.pos[0]
        kept = self.gate.weight[ids[:, 0] > 3]
        return emb + shuffled + every + first + kept.sum()


mixer = PositionalMixer()
params = [C, W1, W2, *mixer.parameters()]
opt = torch.optim.SGD(params, lr=0.1)
for step in range(20000):
    ix = torch.randint(0, X.shape[0], (32,))
    xb = X[ix]
    emb = C[xb]  # expect: RPL201
    emb = mixer(emb, xb)
    h = torch.tanh(emb.view(-1, 30) @ W1)
    loss = F.cross_entropy(h @ W2, Y[ix])
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        C[ix % 27] *= 0.999
