# The look-alike: the same Python 2 script, seeded before its draws. No finding.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
net = nn.Linear(4, 2)
data = np.random.rand(16, 4)
print "training on %d rows" % len(data)
for epoch in xrange(3):
    loss = net(torch.from_numpy(data).float()).pow(2).mean()
    loss.backward()
    print "epoch", epoch, loss.item()
torch.save(net.state_dict(), "net.pt")
