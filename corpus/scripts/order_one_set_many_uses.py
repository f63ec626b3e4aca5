"""One set of words whose order is taken three times (the id table, its inverse, the
embedding rows): one cause, one finding at the first use, the others related. The
same name in another function is another set, so it has its own finding."""
import numpy as np


def build_vocab(path):
    words = open(path).read().split()
    vocab = set(words)
    itos = list(vocab)  # expect: RPL401
    stoi = {w: i for i, w in enumerate(vocab)}
    rows = np.stack([np.full(8, len(w), dtype=np.float32) for w in vocab])
    return itos, stoi, rows


def build_labels(path):
    vocab = set(line.strip() for line in open(path))
    return {label: i for i, label in enumerate(vocab)}  # expect: RPL401


if __name__ == "__main__":
    itos, stoi, rows = build_vocab("train.txt")
    labels = build_labels("labels.txt")
    print(len(itos), rows.shape, len(labels))
