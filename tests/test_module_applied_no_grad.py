"""A module built into a local name and called only inside `with torch.no_grad():` runs
no backward: RPL202 does not report its construction (bicubic `nn.Upsample` resizing
images for an Inception score). Called anywhere else, or handed on, it may train."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import torch
import torch.nn as nn
import torch.nn.functional as F


def score(model, images, device="cuda"):
    up = nn.Upsample(size=(299, 299), mode="bicubic").to(device)

    def predict(x):
        BODY

    return [predict(x) for x in images]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Conv2d(3, 3, 3).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(torch.ones(1, 3, 8, 8).cuda()).sum().backward()
    opt.step()
    print(score(net, [torch.ones(1, 3, 64, 64).cuda()]))
'''


def lines(body: str) -> list[int]:
    return [d.span.start_line for d in check_source(SOURCE.replace("BODY", body), "train.py") if d.code == "RPL202"]


@pytest.mark.parametrize("body", [
    "with torch.no_grad():\n            return F.softmax(model(up(x)), dim=-1)",
    "with torch.inference_mode():\n            x = up(x)\n            return model(x)",
])
def test_a_module_called_only_without_grad_is_not_reported(body: str) -> None:
    assert lines(body) == []


@pytest.mark.parametrize("body", [
    "return F.softmax(model(up(x)), dim=-1)",  # gradient may flow
    "with torch.no_grad():\n            x = up(x)\n        return model(up(x))",  # once outside
    "layers = [up]\n        return model(x)",  # handed on
])
def test_a_module_used_otherwise_is_reported(body: str) -> None:
    assert lines(body) == [7]
