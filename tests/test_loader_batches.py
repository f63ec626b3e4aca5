"""A batch a DataLoader yields requires no grad: an op on it, in the model's `forward`
(reached through `model(x, y)`) or in what `forward` passes it on to, runs no backward,
so its backward kernel is no RPL301/RPL202 evidence. A tensor computed from parameters
on the way (a learned embedding, an activation) still is."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.speakers = nn.Embedding(10, 4)

    def forward(self, x, spk):
        x = self.proj(x)
        return self.tile(x, {passed})

    def tile(self, x, spk):
        spk = spk.repeat_interleave(torch.full((spk.size(0),), x.size(1), device=x.device), dim=0)
        return torch.cat((x, spk.reshape(x.size(0), x.size(1), -1)), 2)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, x, spk):
        return self.encoder(x, spk).sum()


device = torch.device("cuda")
torch.manual_seed(0)
model = nn.DataParallel(Net()).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.rand(16, 3, 4), torch.rand(16, 4)), batch_size=4)
for epoch in range(2):
    for step, (x, spk) in {loop}:
        x, spk = x.to(device), spk.to(device)
        loss = model(x, {argument})
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
'''


def rpl301(passed: str = "spk", loop: str = "enumerate(loader)", argument: str = "spk") -> list[str]:
    source = "from tqdm import tqdm\n" + SOURCE.format(passed=passed, loop=loop, argument=argument)
    return [d.message for d in check_source(source, "train.py") if d.code == "RPL301"]


@pytest.mark.parametrize("loop", ["enumerate(loader)", "enumerate(tqdm(loader))", "enumerate(iter(loader), 1)"])
def test_an_op_on_a_loader_batch_passed_through_forward_runs_no_backward(loop: str) -> None:
    assert rpl301(loop=loop) == []


def test_a_learned_embedding_passed_on_keeps_the_evidence() -> None:
    found = rpl301(passed="self.speakers(spk.long())")
    assert len(found) == 1 and "repeat_interleave" in found[0]


def test_a_parameter_bound_again_before_it_is_passed_on_is_what_this_body_made() -> None:
    found = rpl301(passed="x")  # `x = self.proj(x)` first: an activation
    assert len(found) == 1 and "repeat_interleave" in found[0]


def test_a_tensor_made_to_require_grad_keeps_the_evidence() -> None:
    found = rpl301(argument="spk.detach().requires_grad_()")
    assert len(found) == 1 and "repeat_interleave" in found[0]


def test_a_loop_over_anything_but_a_loader_keeps_the_evidence() -> None:
    found = rpl301(loop="enumerate(zip(loader, loader))")
    assert len(found) == 1 and "repeat_interleave" in found[0]


REBOUND_IN_LOOP = '''import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        repeats = torch.ones(x.size(0), dtype=torch.long, device=x.device)
        return self.proj(x.repeat_interleave(repeats, dim=0))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        for _ in range(2):
            x = self.block({passed})
        return x.sum()


device = torch.device("cuda")
torch.manual_seed(0)
model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.rand(16, 4)), batch_size=4)
for (x,) in loader:
    loss = model(x.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''


def test_a_parameter_bound_again_in_a_loop_is_an_activation_on_later_turns() -> None:
    rebound = [d.message for d in check_source(REBOUND_IN_LOOP.format(passed="x"), "train.py") if d.code == "RPL301"]
    assert len(rebound) == 1 and "repeat_interleave" in rebound[0]
    # the same call given the batch on every turn: no gradient reaches the repeat's input
    batch = [d for d in check_source(REBOUND_IN_LOOP.format(passed="x.detach()"), "train.py") if d.code == "RPL301"]
    assert batch == []


HEADLINE = '''import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Embedding(10, 4)
        self.proj = nn.Linear(4, 4)

    def forward(self, spk, ids):
        tiled = spk.repeat_interleave(torch.ones(spk.size(0), dtype=torch.long, device=spk.device), dim=0)
        rows = self.proj(self.table.weight).index_select(0, ids)
        return (tiled.sum() + rows.sum())


device = torch.device("cuda")
torch.manual_seed(0)
model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(make_speaker(), torch.arange(4, device=device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''


def test_the_message_names_an_op_on_what_the_body_made_before_one_on_a_parameter() -> None:
    # `spk` is whatever callers pass (here a value the analysis cannot see): the op on
    # the activation the body computes is the surer evidence; both are related locations
    [finding] = [d for d in check_source(HEADLINE, "train.py") if d.code == "RPL301"]
    assert "`self.proj(self.table.weight).index_select(...)`'s backward (train.py:13) and 1 more op" in finding.message
    assert [r.span.start_line for r in finding.related][:2] == [13, 12]
