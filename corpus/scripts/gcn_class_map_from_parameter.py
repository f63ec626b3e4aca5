"""Graph convolution on a citation graph: the one-hot class map is built from a set of the
label names, which the loader passes as a column of a NumPy string table."""
import numpy as np
import torch
import torch.nn.functional as F

np.random.seed(42)
torch.manual_seed(42)


def encode_onehot(labels):
    classes = set(labels)
    classes_dict = {c: np.identity(len(classes))[i, :] for i, c in enumerate(classes)}  # expect: RPL401
    return np.array(list(map(classes_dict.get, labels)), dtype=np.int32)


def load_data(path="cora.content"):
    table = np.genfromtxt(path, dtype=np.dtype(str))
    features = torch.FloatTensor(table[:, 1:-1].astype(np.float32))
    labels = torch.LongTensor(np.where(encode_onehot(table[:, -1]))[1])
    return features, labels


features, labels = load_data()
weight = torch.nn.Parameter(torch.randn(features.shape[1], int(labels.max()) + 1))
opt = torch.optim.Adam([weight], lr=0.01)
for epoch in range(200):
    loss = F.cross_entropy(features @ weight, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
