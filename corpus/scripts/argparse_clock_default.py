"""Text classifier (bag of embeddings). The seed defaults to the current time."""
import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab_size, dim, num_classes):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.out = nn.Linear(dim, num_classes)

    def forward(self, tokens, offsets):
        return self.out(self.emb(tokens, offsets))


def collate(batch):
    tokens = [t for t, _ in batch]
    offsets = torch.tensor([0] + [len(t) for t in tokens[:-1]]).cumsum(0)
    return torch.cat(tokens), offsets, torch.stack([y for _, y in batch])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=20000)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()

    np.random.seed(args.seed)  # expect: RPL103
    torch.manual_seed(args.seed)  # expect: RPL103
    print("seed:", args.seed)

    n = 10000
    lengths = np.random.randint(5, 50, size=n)
    docs = [torch.from_numpy(np.random.randint(0, args.vocab, size=k)) for k in lengths]
    labels = torch.randint(0, 4, (n,))
    ds = list(zip(docs, labels))
    loader = DataLoader(ds, batch_size=64, shuffle=True, collate_fn=collate)

    model = BagOfEmbeddings(args.vocab, args.dim, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(args.epochs):
        for tokens, offsets, y in loader:
            loss = nn.functional.cross_entropy(model(tokens, offsets), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
