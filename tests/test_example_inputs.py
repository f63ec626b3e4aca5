"""A draw whose value is only a model's example input (ONNX export, TorchScript tracing,
a TensorBoard graph, a FLOP count) decides no result: what those produce depends on the
input's shape, not its values. A draw that also reaches anything else still counts."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

HEAD = '''import sys

import torch
import torchvision

model = torchvision.models.resnet18()
model.load_state_dict(torch.load(sys.argv[1]))
model.eval()
'''


def draws(body: str) -> list[int]:
    return [d.span.start_line for d in check_source(HEAD + body, "export_model.py") if d.code == "RPL101"]


@pytest.mark.parametrize("body", [
    "torch.onnx.export(model, torch.randn(1, 3, 224, 224), 'model.onnx')\n",
    "dummy = torch.randn(1, 3, 224, 224)\ndummy = dummy.to('cuda')\ntorch.onnx.export(model, dummy, 'model.onnx')\n",
    "dummy = torch.rand(1, 3, 224, 224).cuda()\ntorch.onnx.export(model, args=(dummy,), f='model.onnx')\n",
    "torch.jit.trace(model, torch.randn(1, 3, 224, 224)).save('model.pt')\n",
    "from torch.utils.tensorboard import SummaryWriter\nSummaryWriter().add_graph(model, torch.randn(1, 3, 224, 224))\n",
    "import thop\nx = torch.randn(1, 3, 224, 224)\nprint(thop.profile(model, inputs=(x,)))\n",
])
def test_an_example_input_is_no_draw_that_matters(body: str) -> None:
    assert draws(body) == []


@pytest.mark.parametrize("body", [
    # the same input also goes through the model, whose output is printed
    "dummy = torch.randn(1, 3, 224, 224)\ntorch.onnx.export(model, dummy, 'model.onnx')\nprint(model(dummy).sum())\n",
    # a random input through the model, not an export
    "print(model(torch.randn(1, 3, 224, 224)).argmax())\n",
])
def test_a_draw_that_reaches_more_than_an_example_input_counts(body: str) -> None:
    assert draws(body) == [9]


def test_a_name_a_function_also_reads_counts() -> None:
    body = (
        "dummy = torch.randn(1, 3, 224, 224)\ntorch.onnx.export(model, dummy, 'model.onnx')\n\n\n"
        "def check():\n    print(model(dummy).sum())\n\n\ncheck()\n"
    )
    assert draws(body) == [9]
