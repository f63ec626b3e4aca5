"""Linear probing trains no layer before the head: a model frozen but for its head
(`if name not in ["fc.weight", "fc.bias"]: param.requires_grad = False`, or frozen whole
and its `head` made trainable again) whose optimizer gets only what still requires grad
or the head's parameters runs no cuDNN backward, so RPL302 does not apply. A model frozen
with no head kept (a diffusion script's VAE), a freeze of one stage, a freeze on a branch
the default run skips, or an optimizer given the whole model keeps the finding."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

HEAD = "import torch\nimport torchvision.models as models\n\ntorch.manual_seed(0)\nmodel = models.resnet50()\n"
LOOP = '''for step in range(10):
    loss = model(torch.randn(2, 3, 224, 224).cuda()).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''
FREEZE_BUT_FC = '''for name, param in model.named_parameters():
    if name not in ["fc.weight", "fc.bias"]:
        param.requires_grad = False
'''


def rpl302(body: str) -> int:
    return [d.code for d in check_source(HEAD + body + LOOP, "lincls.py")].count("RPL302")


@pytest.mark.parametrize("body", [
    FREEZE_BUT_FC + "model = model.cuda()\n"
    "parameters = list(filter(lambda p: p.requires_grad, model.parameters()))\n"
    "optimizer = torch.optim.SGD(parameters, lr=30.0)\n",
    FREEZE_BUT_FC + "model = model.cuda()\noptimizer = torch.optim.SGD(model.fc.parameters(), lr=30.0)\n",
    # the head's parameter names formatted from its attribute (`'%s.weight' % key`)
    "key = 'fc'\n" + FREEZE_BUT_FC.replace('["fc.weight", "fc.bias"]', "['%s.weight' % key, f'{key}.bias']")
    + "model = model.cuda()\nparameters = list(filter(lambda p: p.requires_grad, model.parameters()))\n"
    "optimizer = torch.optim.SGD(parameters, lr=30.0)\n",
    "for _, p in model.named_parameters():\n    p.requires_grad = False\n"
    "for _, p in model.fc.named_parameters():\n    p.requires_grad = True\n"
    "model = model.cuda()\noptimizer = torch.optim.SGD(model.fc.parameters(), lr=0.1)\n",
])
def test_a_linear_probe_trains_no_convolution(body: str) -> None:
    assert rpl302(body) == 0


@pytest.mark.parametrize("body", [
    # the whole model trained
    "model = model.cuda()\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n",
    # names formatted, but the optimizer given the whole model
    "key = 'fc'\n" + FREEZE_BUT_FC.replace('["fc.weight", "fc.bias"]', "['%s.weight' % key, '%s.bias' % key]")
    + "model = model.cuda()\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n",
    # one stage frozen, the rest trained
    "for p in model.layer1.parameters():\n    p.requires_grad = False\nmodel = model.cuda()\n"
    "optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)\n",
    # another model frozen with no head kept, this one trained
    "vae = models.resnet18()\nvae.requires_grad_(False)\nmodel = model.cuda()\n"
    "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)\n",
    # the freeze only on a branch (an option the default run leaves off)
    "import sys\nif '--freeze' in sys.argv:\n" + "".join("    " + line + "\n" for line in FREEZE_BUT_FC.splitlines())
    + "model = model.cuda()\noptimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)\n",
])
def test_training_any_layer_before_the_head_keeps_the_finding(body: str) -> None:
    assert rpl302(body) == 1
