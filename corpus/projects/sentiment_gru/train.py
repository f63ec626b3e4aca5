"""Train a BiGRU sentiment classifier. Pass --seed to make the run reproducible."""
import argparse

import torch
import torch.nn.functional as F

import data
import utils
from model import GRUClassifier


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train", default="data/sst2/train.tsv")
    parser.add_argument("--dev", default="data/sst2/dev.tsv")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    if args.seed is not None:
        utils.set_seed(args.seed)  # expect: RPL104

    train_ex, dev_ex = data.read_tsv(args.train), data.read_tsv(args.dev)
    vocab = data.build_vocab(train_ex)
    train_enc, dev_enc = data.encode(train_ex, vocab), data.encode(dev_ex, vocab)

    model = GRUClassifier(len(vocab))
    print("parameters:", utils.count_parameters(model))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        model.train()
        for xs, ys in data.batches(train_enc, args.batch_size):
            loss = F.cross_entropy(model(xs), ys)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        correct = total = 0
        for xs, ys in data.batches(dev_enc, 256, shuffle=False):
            correct += (model(xs).argmax(-1) == ys).sum().item()
            total += len(ys)
        print(f"epoch {epoch}: dev acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
