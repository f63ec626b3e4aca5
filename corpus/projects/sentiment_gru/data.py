import csv
import random
from collections import Counter

import torch
from torch.nn.utils.rnn import pad_sequence

PAD, UNK = 0, 1


def read_tsv(path):
    with open(path, newline="") as f:
        return [(row[0].lower().split(), int(row[1])) for row in csv.reader(f, delimiter="\t")]


def build_vocab(examples, min_freq=2):
    counts = Counter(tok for toks, _ in examples for tok in toks)
    itos = ["<pad>", "<unk>"] + sorted(t for t, c in counts.items() if c >= min_freq)
    return {t: i for i, t in enumerate(itos)}


def encode(examples, vocab):
    return [(torch.tensor([vocab.get(t, UNK) for t in toks]), label) for toks, label in examples]


def batches(encoded, batch_size, shuffle=True):
    order = list(range(len(encoded)))
    if shuffle:
        random.shuffle(order)
    for i in range(0, len(order), batch_size):
        chunk = [encoded[j] for j in order[i : i + batch_size]]
        xs = pad_sequence([x for x, _ in chunk], batch_first=True, padding_value=PAD)
        yield xs, torch.tensor([y for _, y in chunk])
