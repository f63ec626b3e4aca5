"""marimo notebooks: cells are functions marimo runs in the order of the names they share;
`check` reads their bodies as top-level code, line for line and column for column, where
the file's order is one marimo may run (reprolint/marimo.py)."""
from __future__ import annotations

from pathlib import Path

from project_files import found, write

from reprolint.api import check_paths

NOTEBOOK = '''import marimo

__generated_with = "0.21.0"
app = marimo.App(width="full")


@app.cell
def _():
    import numpy as np
    import torch
    import torch.nn as nn
    return nn, np, torch


@app.cell(hide_code=True)
def _(nn, torch):
    class Network(nn.Module):
        def __init__(self, in_dim, out_dim):
            super().__init__()
            self.layers = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, out_dim))

        def forward(self, x):
            return self.layers(x)

    return (Network,)


@app.cell
def _(np, torch):
{seed}    return (seed,)


@app.cell
def _(
    Network,
    np,
    seed,
    torch,
):
    net = Network(4, 2)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(100):
        batch = np.random.choice(1000, 32)
        loss = net(torch.randn(32, 4)).pow(2).mean() + float(batch.mean()) * 0
        opt.zero_grad()
        loss.backward()
        opt.step()
    return (net,)


if __name__ == "__main__":
    app.run()
'''
SEEDED = "    seed = 777\n    np.random.seed(seed)\n    torch.manual_seed(seed)\n"


def test_a_cell_that_seeds_before_the_cell_that_builds_the_model_seeds_it(tmp_path: Path) -> None:
    write(tmp_path, {"dqn.py": NOTEBOOK.format(seed=SEEDED)})
    result = check_paths([str(tmp_path)], jobs=1)
    assert [d.code for d in result.diagnostics] == []
    assert any("1 marimo notebook checked with their cells run at the top level" in n for n in result.notes)


def test_draws_of_a_notebook_that_never_seeds_are_reported_on_their_own_lines_and_columns(tmp_path: Path) -> None:
    write(tmp_path, {"dqn.py": NOTEBOOK.format(seed="    seed = 777\n")})
    result = check_paths([str(tmp_path)], jobs=1)
    spans = sorted((d.code, d.span.start_line, d.span.start_col) for d in result.diagnostics if d.code == "RPL101")
    lines = NOTEBOOK.format(seed="    seed = 777\n").splitlines()

    def at(text: str) -> tuple[str, int, int]:
        (line,) = [i for i, s in enumerate(lines, 1) if text in s]
        return "RPL101", line, lines[line - 1].index(text) + 1

    # the first weight drawn (the layers' first Linear) and NumPy's draw, as written
    assert spans == [at("nn.Linear(in_dim, 64)"), at("np.random.choice")]
    # a reading: no fix is planned on it
    assert all(d.fix is None for d in result.diagnostics)


def test_a_notebook_whose_file_order_marimo_would_not_run_is_checked_as_written(tmp_path: Path) -> None:
    # the seeding cell comes after the cell that takes its `seed`: not read as top-level code
    text = NOTEBOOK.format(seed=SEEDED)
    seed_cell = "@app.cell\ndef _(np, torch):\n" + SEEDED + "    return (seed,)\n\n\n"
    moved = text.replace(seed_cell, "").replace('if __name__ == "__main__":', seed_cell + 'if __name__ == "__main__":')
    write(tmp_path, {"dqn.py": moved})
    result = check_paths([str(tmp_path)], jobs=1)
    assert not any("marimo" in n for n in result.notes)
    # checked as written: nothing calls the cells, so their draws are no program's
    assert [d.code for d in result.diagnostics if d.code == "RPL900"] == []


def test_a_cell_that_returns_early_keeps_the_notebook_checked_as_written(tmp_path: Path) -> None:
    early = NOTEBOOK.format(seed=SEEDED).replace(
        "    net = Network(4, 2)\n", "    if seed is None:\n        return (None,)\n    net = Network(4, 2)\n")
    write(tmp_path, {"dqn.py": early})
    result = check_paths([str(tmp_path)], jobs=1)
    assert not any("marimo" in n for n in result.notes)
    assert [d.code for d in result.diagnostics if d.code == "RPL900"] == []
