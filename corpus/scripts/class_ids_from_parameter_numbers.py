"""Class ids from a set of a parameter: every call passes integer arrays (or a set of
names it sorted first), so no set of text takes an order here."""
import numpy as np
import torch
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)


def class_index(labels):
    classes = set(labels)
    return {c: i for i, c in enumerate(classes)}


def remap(values, mapping):
    kinds = set(values)
    return [mapping[k] for k in sorted(kinds)]


raw = np.loadtxt("labels.txt", dtype=np.int64)
index = class_index(raw[:, 0])
names = np.genfromtxt("names.txt", dtype=str)
order = remap(names, {n: i for i, n in enumerate(sorted(set(names)))})
targets = torch.tensor([index[v] for v in raw[:, 0]])
weight = torch.nn.Parameter(torch.zeros(4, len(index)))
opt = torch.optim.SGD([weight], lr=0.1)
for epoch in range(10):
    loss = F.cross_entropy(torch.ones(len(targets), 4) @ weight, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
