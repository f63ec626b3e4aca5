"""A loader's `collate_fn` runs where the samples are made: in the loader's worker
processes, which torch (>= 1.9) seeds per worker for `random` and NumPy from its own
seed, or in the main process when the loader has no workers."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

PROGRAM = (
    "import numpy as np\nimport torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\n\n"
    "def jitter_batch(batch):\n"
    "    x = torch.stack([b[0] for b in batch])\n"
    "    return x + torch.from_numpy(np.random.normal(0, 0.1, size=tuple(x.shape))).float()\n\n\n"
    "torch.manual_seed(0)\n"
    "data = TensorDataset(torch.rand(16, 4))\n"
    "loader = DataLoader(data, batch_size=4, num_workers={workers}, collate_fn=jitter_batch)\n"
    "for batch in loader:\n"
    "    print(batch.sum())\n"
)


@pytest.mark.parametrize(("workers", "reported"), [(2, False), (0, True)])
def test_a_collate_draw_needs_only_torch_s_seed_in_workers(tmp_path: Path, workers: int, reported: bool) -> None:
    (tmp_path / "train.py").write_text(PROGRAM.format(workers=workers))
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert [d.span.start_line for d in found] == ([8] if reported else [])
