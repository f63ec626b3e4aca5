"""A bag-of-words classifier whose vocabulary is built from a `set` of words.

Iterating a set of str follows the str hashes, which Python salts per process unless
PYTHONHASHSEED is set: word ids, and so the embedding row each word trains, change
from run to run although torch is seeded.
"""

import argparse

import torch
from torch import nn

POSITIVE = "good great fine nice superb lovely happy bright clean fast".split()
NEGATIVE = "bad poor awful ugly broken sad dark dirty slow wrong".split()
NEUTRAL = "the a of and to it is was this that with for on at".split()


def make_corpus(n=200):
    data = torch.Generator().manual_seed(5)
    sentences, labels = [], []
    for i in range(n):
        label = i % 2
        pool = POSITIVE if label else NEGATIVE
        picks = torch.randint(0, len(pool), (3,), generator=data).tolist()
        fillers = torch.randint(0, len(NEUTRAL), (4,), generator=data).tolist()
        sentences.append([pool[p] for p in picks] + [NEUTRAL[f] for f in fillers])
        labels.append(label)
    return sentences, labels


class BagOfWords(nn.Module):
    def __init__(self, vocab_size, dim=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.out = nn.Linear(dim, 2)

    def forward(self, tokens):
        return self.out(self.embedding(tokens).mean(1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", help="save the trained weights (state dict) here")
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    sentences, labels = make_corpus()
    vocab = {word: i for i, word in enumerate(set(w for s in sentences for w in s))}  # expect: RPL401
    tokens = torch.tensor([[vocab[w] for w in s] for s in sentences])
    targets = torch.tensor(labels)
    model = BagOfWords(len(vocab))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(args.epochs):
        for start in range(0, len(tokens), 40):
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(
                model(tokens[start:start + 40]), targets[start:start + 40]
            )
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    if args.out:
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
