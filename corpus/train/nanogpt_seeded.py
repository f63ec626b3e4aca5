"""A tiny character-level GPT trainer shaped like nanoGPT's train.py (CPU, seconds).

Like nanoGPT it seeds torch itself with a constant (`torch.manual_seed(1337 +
seed_offset)`), takes `--key=value` overrides of its globals, and logs
`iter N: loss L, time T ms`. Like minGPT's projects, the seed can also come from the
environment (`TRAIN_SEED`). `reprolint variance --mode seeds` cannot vary its seed
through install(): the program overwrites it. `--seed-arg "--seed={seed}"` or
`--seed-env TRAIN_SEED` vary it through the program's own option.
"""

import os
import sys
import time

import torch
import torch.nn as nn
from torch.nn import functional as F

# -- configuration (nanoGPT style: globals overridden by --key=value) ----------------
seed = 1337
max_iters = 6
batch_size = 8
block_size = 16
n_embd = 32
learning_rate = 1e-2
for arg in sys.argv[1:]:
    key, _, value = arg.lstrip("-").partition("=")
    if key in globals() and value:
        globals()[key] = type(globals()[key])(value)
seed = int(os.environ.get("TRAIN_SEED", seed))
seed_offset = 0

text = "to be or not to be, that is the question. " * 20
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(n_embd)
        self.attn = nn.MultiheadAttention(n_embd, 2, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        h = self.ln(x)
        mask = torch.triu(torch.ones(x.size(1), x.size(1), dtype=torch.bool), diagonal=1)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(x)


class GPT(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.tok = nn.Embedding(vocab, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.block = Block()
        self.head = nn.Linear(n_embd, vocab)
        self.drop = nn.Dropout(0.1)

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1))
        x = self.drop(self.tok(idx) + self.pos(pos))
        logits = self.head(self.block(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x, y


torch.manual_seed(seed + seed_offset)
model = GPT(len(chars))
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
for it in range(max_iters):
    t0 = time.time()
    x, y = get_batch()
    loss = model(x, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f}, time {(time.time() - t0) * 1000:.2f}ms")
