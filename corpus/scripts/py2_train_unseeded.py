# A Python 2 training script: checked as the Python 3 it means, line for line.
import numpy as np
import torch
import torch.nn as nn

net = nn.Linear(4, 2)  # expect: RPL101
data = np.random.rand(16, 4)  # expect: RPL101
print "training on %d rows" % len(data)
for epoch in xrange(3):
    loss = net(torch.from_numpy(data).float()).pow(2).mean()
    loss.backward()
    print "epoch", epoch, loss.item()
torch.save(net.state_dict(), "net.pt")
