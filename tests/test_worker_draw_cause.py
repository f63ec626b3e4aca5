"""A `random`/NumPy draw in a DataLoader worker is decided by torch's seed (torch >= 1.9
reseeds both in each worker from its own generator), so it counts toward torch's cause:
the finding sits at torch's own first draw when the program has one, and otherwise at the
worker draw, with a message that says torch's seed decides it (not "the `random` module
is never seeded")."""
from __future__ import annotations

from reprolint.api import check_source

PROGRAM = '''import random

import torch
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        flip = random.random() < 0.5
        return torch.ones(3) * (-1 if flip else 1)


loader = DataLoader(Crops(), batch_size=8, shuffle=SHUFFLE, num_workers=2)
for batch in loader:
    print(batch.sum())
'''


def rpl101(shuffle: bool) -> list[tuple[int, str]]:
    source = PROGRAM.replace("SHUFFLE", str(shuffle))
    return [(d.span.start_line, d.message) for d in check_source(source, "train.py") if d.code == "RPL101"]


def test_torch_s_own_draw_carries_the_cause() -> None:
    found = rpl101(True)
    assert [line for line, _ in found] == [16]
    assert "shuffles with torch's global RNG, which is never seeded" in found[0][1]


def test_a_worker_draw_alone_says_torch_decides_it() -> None:
    found = rpl101(False)
    assert [line for line, _ in found] == [12]
    assert "in DataLoader workers, where torch reseeds it from torch's own generator, which is never seeded" \
        in found[0][1]
