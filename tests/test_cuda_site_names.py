"""The CUDA site a determinism-flag finding names is the call the program makes:
`torch.nn.DataParallel(..., device_ids=...)` is named as such, not as
`DistributedDataParallel` (a blind judge found the wrong name on pytorch-retinanet)."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

PROGRAM = '''import torch
import torch.nn as nn

net = nn.Conv2d(3, 8, 3)
net = WRAPPER(net, device_ids=[0, 1])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for i in range(3):
    loss = net(torch.ones(1, 3, 8, 8)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


@pytest.mark.parametrize("wrapper", ["torch.nn.DataParallel", "torch.nn.parallel.DistributedDataParallel"])
def test_the_message_names_the_wrapper_the_program_calls(wrapper: str) -> None:
    found = [d for d in check_source(PROGRAM.replace("WRAPPER", wrapper), "train.py") if d.code == "RPL302"]
    assert len(found) == 1
    assert f"runs cuDNN on CUDA (`{wrapper}(device_ids=...)`)" in found[0].message
