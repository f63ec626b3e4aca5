"""Seeds torch and random through the names the star import brings (`torch.manual_seed`
without an `import torch` of its own) before it builds the model: nothing to report."""
import argparse

import torch.nn as nn
import torch.optim as optim

from common import *

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=1111)
parser.add_argument("--data", default="data/corpus.txt")
args = parser.parse_args()

torch.manual_seed(args.seed)
random.seed(args.seed)

data, vocab = load_corpus(args.data)
batches = batchify(data, 32)
model = nn.Sequential(nn.Embedding(vocab, 64), nn.Linear(64, vocab))
optimizer = optim.Adam(model.parameters(), lr=1e-3)
for step in range(100):
    start = random.randrange(0, batches.size(1) - 1)
    x, y = batches[:, start], batches[:, start + 1]
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
torch.save(model.state_dict(), checkpoint_path("out"))
