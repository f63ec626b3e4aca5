"""The DataLoader worker claims RPL-order's `dataloader-worker-seed` rule rests on, checked
against the installed torch: since torch 1.9 each worker reseeds torch, Python `random`
and NumPy's global RNG from the loader's base seed (drawn from torch's generator in the
main process), while a generator the dataset owns is copied unchanged into every worker.
"""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

pytestmark = pytest.mark.slow  # starts worker processes


class _Draws(torch.utils.data.Dataset):
    def __init__(self) -> None:
        self.rng = np.random.default_rng(5)  # the dataset's own generator

    def __len__(self) -> int:
        return 4

    def __getitem__(self, index: int) -> tuple:
        worker = torch.utils.data.get_worker_info().id
        return (worker, torch.rand(1).item(), random.random(), float(np.random.rand()), float(self.rng.random()))


def _by_worker(seed: int) -> dict:
    torch.manual_seed(seed)
    loader = torch.utils.data.DataLoader(_Draws(), batch_size=None, num_workers=2)
    firsts: dict = {}
    for worker, *values in loader:
        firsts.setdefault(worker, tuple(values))  # each worker's first sample
    return firsts


def test_workers_reseed_torch_random_and_numpy_but_not_the_datasets_generator() -> None:
    firsts = _by_worker(0)
    assert sorted(firsts) == [0, 1]
    (t0, r0, n0, own0), (t1, r1, n1, own1) = firsts[0], firsts[1]
    assert t0 != t1, "torch is not reseeded per worker"
    assert r0 != r1, "random is not reseeded per worker"
    assert n0 != n1, "NumPy's global RNG is not reseeded per worker (torch < 1.9?)"
    assert own0 == own1, "the dataset's own generator differs between workers"


def test_worker_seeds_follow_torch_manual_seed_in_the_main_process() -> None:
    first, again, other = _by_worker(1), _by_worker(1), _by_worker(2)
    assert first == again
    for worker in (0, 1):
        assert first[worker][:3] != other[worker][:3]  # torch, random, NumPy all move
