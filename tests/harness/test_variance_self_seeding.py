"""`variance --mode seeds` on programs that seed themselves with a constant (nanoGPT's
`torch.manual_seed(1337)`, minGPT's `set_seed(3407)`): the report says the varied
seeds were overwritten, and `--seed-arg` / `--seed-env` vary them through the
program's own option or environment (issue 17 item 3)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, List

import pytest

from reprolint.harness.cli import main
from reprolint.harness.variance import RunRecord, run_command, self_seeding

PY = sys.executable
NANOGPT = Path(__file__).resolve().parents[2] / "corpus" / "train" / "nanogpt_seeded.py"

# minGPT's set_seed in a few lines, without torch: Python random seeded with a constant
# unless --seed=N or TRAIN_SEED says otherwise.
SELF_SEEDED = """
import os, random, sys
from reprolint.runtime import metric
seed = 3407
for arg in sys.argv[1:]:
    if arg.startswith("--seed="):
        seed = int(arg.split("=", 1)[1])
seed = int(os.environ.get("TRAIN_SEED", seed))
random.seed(seed)
metric("accuracy", random.random())
"""


def _record(seed: int, seedings: List[List[Any]]) -> RunRecord:
    return RunRecord("seeds", seed, seed, f"run-{seed}", seedings=seedings)


def test_a_constant_reseed_in_every_run_is_named_with_its_value_and_line() -> None:
    runs = [
        _record(1, [["torch", "torch.manual_seed", 1337, "train.py:106"]]),
        _record(2, [["torch", "torch.manual_seed", 1337, "train.py:106"]]),
    ]
    assert self_seeding(runs) == [
        "the program seeds torch itself with 1337 at train.py:106: the varied seeds had no effect"
    ]


def test_several_libraries_seeded_with_one_constant_make_one_note() -> None:
    seedings = [
        ["random", "random.seed", 3407, "mingpt/utils.py:12"],
        ["numpy", "numpy.random.seed", 3407, "mingpt/utils.py:13"],
        ["torch", "torch.manual_seed", 3407, "mingpt/utils.py:14"],
    ]
    assert self_seeding([_record(1, seedings), _record(2, seedings)]) == [
        "the program seeds Python random, NumPy and torch itself with 3407 at "
        "mingpt/utils.py:12, mingpt/utils.py:13 and mingpt/utils.py:14: the varied seeds had no effect"
    ]


def test_a_reseed_that_follows_the_run_seed_is_not_a_note() -> None:
    runs = [
        _record(1, [["torch", "torch.manual_seed", 1, "train.py:106"]]),
        _record(2, [["torch", "torch.manual_seed", 2, "train.py:106"]]),
    ]
    assert self_seeding(runs) == []
    same_seed = [_record(1, [["torch", "torch.manual_seed", 7, "t.py:1"]])] * 2
    assert self_seeding(same_seed) == []  # a fixed group: nothing was varied


def test_seed_arg_is_appended_with_the_runs_seed() -> None:
    assert run_command(["python", "t.py"], 3, "--seed={seed}") == ["python", "t.py", "--seed=3"]
    assert run_command(["python", "t.py"], 3, "--seed {seed}") == ["python", "t.py", "--seed", "3"]
    assert run_command(["python", "t.py"], 3, None) == ["python", "t.py"]


class Ran:
    def __init__(self, status: int, out: str, err: str) -> None:
        self.status, self.out, self.err = status, out, err

    def __repr__(self) -> str:
        return f"Ran(status={self.status}, out={self.out!r}, err={self.err[-3000:]!r})"


@pytest.fixture
def variance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Callable[..., Ran]:
    monkeypatch.chdir(tmp_path)
    for name in ("PYTHONHASHSEED", "REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD", "TRAIN_SEED"):
        monkeypatch.delenv(name, raising=False)

    def run(*args: str) -> Ran:
        status = main(["variance", *args])
        captured = capsys.readouterr()
        return Ran(status, captured.out, captured.err)

    return run


def test_usage_errors(variance: Callable[..., Ran]) -> None:
    result = variance("--seed-arg", "--seed=1", "--", PY, "-c", "pass")
    assert result.status == 2 and "--seed-arg must contain {seed}" in result.err


@pytest.mark.slow
def test_self_seeded_program_is_reported_and_seed_arg_and_env_vary_it(
    variance: Callable[..., Ran], tmp_path: Path
) -> None:
    script = tmp_path / "train.py"
    script.write_text(SELF_SEEDED)
    plain = variance("--runs", "2", "--", PY, str(script))
    assert plain.status == 0, plain
    assert plain.out.startswith("NO VARIANCE over 2 runs with seeds varied"), plain
    assert "  note: the program seeds Python random itself with 3407 at train.py:9: the varied seeds had no effect" in plain.out
    assert '--seed-arg "--seed={seed}" or --seed-env NAME' in plain.out

    for option in (("--seed-arg", "--seed={seed}"), ("--seed-env", "TRAIN_SEED")):
        varied = variance("--runs", "2", "--output-format", "json", *option, "--", PY, str(script))
        assert varied.status == 0, varied
        data = json.loads(varied.out)
        assert data["self_seeded"] == []
        [group] = data["groups"]
        assert group["no_variance"] is False, varied


@pytest.mark.slow
def test_nanogpt_like_trainer_names_its_manual_seed_line(variance: Callable[..., Ran]) -> None:
    pytest.importorskip("torch")
    line = next(i for i, text in enumerate(NANOGPT.read_text().splitlines(), 1)
                if text.startswith("torch.manual_seed("))
    result = variance("--runs", "2", "--", PY, str(NANOGPT))
    assert result.status == 0, result
    assert result.out.startswith("NO VARIANCE over 2 runs with seeds varied"), result
    assert f"note: the program seeds torch itself with 1337 at {NANOGPT}:{line}: the varied seeds had no effect" in result.out

