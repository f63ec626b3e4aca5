"""A linear-probe script that seeds torch and NumPy but not `random`: a random port for
the process group and a random run name are text (f-string fields) and decide nothing
the model sees; the random crop offset does."""
import random

import numpy as np
import torch
import torch.distributed as dist

torch.manual_seed(0)  # (RPL105 said by RPL101 at the unseeded draw, this call related)
np.random.seed(0)
dist_url = f"tcp://localhost:{random.randrange(49152, 65535)}"
run_name = f"probe_{random.randrange(2**32):08x}"
dist.init_process_group("gloo", init_method=dist_url, rank=0, world_size=1)

features = torch.linspace(0, 1, 64 * 40).reshape(64, 40)
offset = random.randint(0, 8)  # expect: RPL101
probe = torch.nn.Linear(32, 10)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
for step in range(100):
    loss = torch.nn.functional.cross_entropy(probe(features[:, offset:offset + 32]), torch.arange(64) % 10)
    opt.zero_grad()
    loss.backward()
    opt.step()
torch.save(probe.state_dict(), f"{run_name}.pt")
