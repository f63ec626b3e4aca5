"""Commands a command-line dispatcher runs (issue 25 item 5): `jsonargparse.CLI`,
`fire.Fire` and click/typer `@group.command()` run each command's function with its
parameters at their defaults (the options a user leaves out). A command defined in
another module is a program of its own, started at that module, with its own role."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

MAIN = '''from jsonargparse import CLI

from pkg.generate import main as generate
from pkg.pretrain import setup as pretrain


def main():
    CLI({"pretrain": pretrain, "tools": {"generate": generate}})


if __name__ == "__main__":
    main()
'''
PRETRAIN = '''import torch


def setup(steps=10):
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = model(torch.ones(2, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
'''
GENERATE = '''import torch


def main(seed=0):
    torch.manual_seed(seed)
    print(torch.multinomial(torch.ones(5), 1))
'''


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _json(root: Path) -> list:
    return [d for d in check_paths([str(root)], jobs=1).diagnostics]


def test_each_dispatched_command_is_a_program_with_its_role(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/__main__.py": MAIN, "pkg/pretrain.py": PRETRAIN,
                      "pkg/generate.py": GENERATE})
    found = _json(tmp_path)
    assert [(d.code, Path(d.path).name, d.span.start_line) for d in found] == [("RPL101", "pretrain.py", 5)]
    [finding] = found
    assert [Path(e).name for e in finding.entry_points] == ["pretrain.py"]
    assert finding.data["roles"] == {finding.entry_points[0]: "training"}


def test_the_dispatcher_leaves_a_seeded_command_to_its_own_program(tmp_path: Path) -> None:
    # the command seeds itself: no run of the dispatcher draws from it unseeded
    seeded = PRETRAIN.replace("    model =", "    torch.manual_seed(0)\n    model =")
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/__main__.py": MAIN, "pkg/pretrain.py": seeded,
                      "pkg/generate.py": GENERATE})
    assert _json(tmp_path) == []


FIRE = '''import fire
import torch


def main(seed=None):
    if seed is not None:
        torch.manual_seed(seed)
    print(torch.randn(3))


if __name__ == "__main__":
    fire.Fire(main)
'''


def test_a_commands_parameter_defaults_are_its_option_defaults(tmp_path: Path) -> None:
    _write(tmp_path, {"train.py": FIRE})
    assert [(d.code, d.span.start_line) for d in _json(tmp_path)] == [("RPL104", 7)]
    _write(tmp_path, {"train.py": FIRE.replace("seed=None", "seed=3")})
    assert _json(tmp_path) == []


CLICK = '''import click
import numpy as np


@click.group()
def cli():
    pass


@cli.command()
@click.option("--seed", default=None, type=int)
def train(seed):
    if seed is not None:
        np.random.seed(seed)
    print(np.random.randn(10).sum())


if __name__ == "__main__":
    cli()
'''


def test_a_click_group_command_runs_as_the_programs_command(tmp_path: Path) -> None:
    _write(tmp_path, {"cli.py": CLICK})
    assert [(d.code, d.span.start_line) for d in _json(tmp_path)] == [("RPL104", 14)]
