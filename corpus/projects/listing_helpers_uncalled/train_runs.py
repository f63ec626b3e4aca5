"""Resumes training from the newest checkpoint that `runlog_utils.latest_checkpoint`
finds: its glob's last entry is picked by position on every run (RPL402). The same flat
helper module also has `load_monitor_frames`, which no script of the project calls: its
glob never runs on any program's path, so it is not reported. The package `ckptstore`,
which setup.py builds for others, is library code a user may import: its `newest` is
called by nothing here and is still reported, as library code is."""
import torch
import torch.nn as nn

from ckptstore.files import describe
from runlog_utils import latest_checkpoint

torch.manual_seed(0)
model = nn.Linear(8, 2)
state = torch.load(latest_checkpoint("runs/exp1"), map_location="cpu")
model.load_state_dict(state["model"])
print(describe("runs/exp1"))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(100):
    x = torch.randn(16, 8)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
