"""Values computed under `torch.no_grad()` can still be what training is pulled toward
(a Q-learning target, a teacher's output): a nondeterministic kernel there changes the
weights, so it stays RPL301's evidence. (Measured on the development set: leaving such
ops out lost cleanrl's C51 and Rainbow findings, whose target projection runs under
no_grad.)"""
from __future__ import annotations

from reprolint.api import check_source

SOURCE = '''import torch

torch.manual_seed(0)
device = torch.device("cuda")
net = torch.nn.Linear(4, 8).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
index = torch.randint(0, 8, (32, 8), device=device)
for step in range(10):
    x = torch.randn(32, 4, device=device)
    {block}
        target = torch.zeros(32, 8, device=device).scatter_add_(1, index, net(x))
    loss = (net(x) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def test_a_target_computed_under_no_grad_is_evidence() -> None:
    for block in ("with torch.no_grad():", "with torch.inference_mode():", "if True:"):
        found = [d for d in check_source(SOURCE.format(block=block), "train.py") if d.code == "RPL301"]
        assert [(d.span.start_line, "scatter_add_" in d.message) for d in found] == [(4, True)], block


ORDER = '''import torch

torch.manual_seed(0)
device = torch.device("cuda")
table = torch.nn.Embedding(100, 8).to(device)
opt = torch.optim.SGD(table.parameters(), lr=0.1)


@torch.inference_mode()
def sample_histogram(ids):
    return torch.zeros(100, device=device).index_add_(0, ids, torch.ones(len(ids), device=device))


for step in range(10):
    ids = torch.randint(0, 100, (32,), device=device)
    print(sample_histogram(ids))
    loss = table.weight.index_select(0, ids).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def test_the_message_names_an_op_of_the_training_step_not_one_of_an_inference_method() -> None:
    # The sampling helper runs first, but it is an `@torch.inference_mode()` function
    # no training step calls with grad: its histogram only reaches a print. The message
    # names the training step's index_select backward, and only that op is evidence.
    found = [d for d in check_source(ORDER, "train.py") if d.code == "RPL301"]
    assert len(found) == 1
    assert "`table.weight.index_select(...)`'s backward (train.py:17), nondeterministic on CUDA" in found[0].message
    assert [r.span.start_line for r in found[0].related if "runs a kernel" in r.message] == [17]
