# Train an MLP on the UCI wine data and print the seed "so we can reproduce it later".
from datetime import datetime
import random
import time

import numpy as np
import torch
import torch.nn as nn
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

seed = int(time.time())
print(f"using seed {seed}")
random.seed(seed)  # expect: RPL103
np.random.seed(seed % (2**32))  # expect: RPL103
torch.manual_seed(int(datetime.now().timestamp() * 1000))  # expect: RPL103

X, y = load_wine(return_X_y=True)
X = StandardScaler().fit_transform(X).astype(np.float32)
idx = np.random.permutation(len(X))
train, test = idx[:140], idx[140:]
X_t, y_t = torch.from_numpy(X), torch.from_numpy(y)

model = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(200):
    batch = random.sample(list(train), 32)
    loss = nn.functional.cross_entropy(model(X_t[batch]), y_t[batch])
    opt.zero_grad()
    loss.backward()
    opt.step()

with torch.no_grad():
    acc = (model(X_t[test]).argmax(1) == y_t[test]).float().mean().item()
print(f"seed={seed} test acc={acc:.3f}")
