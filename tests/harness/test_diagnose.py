"""`reprolint verify --diagnose` (issue 27 item 3): each control on small real programs,
the ranking, the matching findings and fixes, the budget, --jobs."""

from __future__ import annotations

import sys

import pytest

PY = sys.executable

NUMPY_GENERATOR = """\
import numpy as np


def make_data(n):
    x = np.random.rand(n, 3)
    return x, (x.sum(axis=1) > 1.5).astype(int)


if __name__ == "__main__":
    x, y = make_data(50)
    w = np.zeros(3)
    for step in range(20):
        w += 0.1 * x.T @ (y - x @ w) / len(y)
    print("weights", w.round(6).tolist())
"""

VOCABULARY = """\
text = "the cat sat on the mat with another cat and a dog".split()
vocab = list(set(text))
ids = {w: i for i, w in enumerate(vocab)}
print("encoded", [ids[w] for w in text])
"""

SHUFFLE = """\
import random

data = list(range(20))
random.shuffle(data)
print("order", data)
"""


def test_an_unseeded_numpy_data_generator_is_diagnosed_as_a_numpy_cause(verify, script) -> None:
    path = script("gen.py", NUMPY_GENERATOR)
    result = verify("--diagnose", "--", PY, path)
    assert result.status == 1
    # The budget comes first, after the plain runs and before any control runs.
    err = result.err.splitlines()
    [first] = [line for line in err if line.startswith("diagnose:")]
    assert err.index(first) == 2 and err[3].startswith("control 1/2 NumPy's RNG seeded: run 1/2")
    assert first.startswith("diagnose: 2 controls, 2 runs each: 4 extra runs (the plain runs took ")
    assert first.endswith("NumPy's RNG seeded, PYTHONHASHSEED fixed")
    lines = [line.strip() for line in result.out.splitlines()]
    at = lines.index("1. runs agree with NumPy's RNG seeded: NumPy's random numbers are a cause")
    assert lines[at + 1].startswith("matching finding: RPL101 ") and "`np.random.rand`" in lines[at + 1]
    assert lines[at + 2] == (
        "fix: Seed every library at the entry point with `reprolint.runtime.install` (safe: `reprolint fix --write`)"
    )
    assert "runs still differ with PYTHONHASHSEED fixed" in lines
    # The hint names the diagnosed cause first.
    assert "likely causes from a static check: RPL101 " in result.out


def test_a_set_of_strings_is_diagnosed_as_str_hash_order(verify, script) -> None:
    path = script("vocab.py", VOCABULARY)
    result = verify("--diagnose", "--output-format", "json", "--", PY, path)
    assert result.status == 1
    data = result.json()
    assert data["diagnosis"]["causes"] == ["hash"]
    hash_control = next(c for c in data["diagnosis"]["controls"] if c["control"]["name"] == "hash")
    assert hash_control["verdict"] == "agree"
    assert any(f.startswith("RPL401 ") for f in hash_control["findings"])
    assert hash_control["fixes"][0] == (
        "Deduplicate in first-seen order with `dict.fromkeys(...)` (safe: `reprolint fix --write`)"
    )
    rng = next(c for c in data["diagnosis"]["controls"] if c["control"]["name"] == "rng:all")
    assert rng["verdict"] == "differ" and rng["findings"] == []


def test_python_random_is_diagnosed_per_library(verify, script) -> None:
    path = script("shuffle.py", SHUFFLE)
    result = verify("--diagnose", "--output-format", "json", "--", PY, path)
    causes = result.json()["diagnosis"]["causes"]
    assert causes == ["rng:random"]


def test_diagnose_works_with_jobs(verify, script) -> None:
    path = script("gen.py", NUMPY_GENERATOR)
    result = verify("--diagnose", "--jobs", "2", "--output-format", "json", "--", PY, path)
    assert result.json()["diagnosis"]["causes"] == ["rng:numpy"]


def test_nothing_is_diagnosed_when_the_runs_agree(verify, script) -> None:
    path = script("same.py", "print('same', sorted({'a', 'b'}))\n")
    result = verify("--diagnose", "--", PY, path)
    assert result.status == 0 and "diagnose:" not in result.err and "diagnosis" not in result.out


def test_a_set_of_strings_script_is_reported_fixed_and_diagnosed(verify, script, tmp_path, capsys) -> None:
    from reprolint.cli import main as lint_main

    path = script("vocab.py", VOCABULARY)
    original = tmp_path / "original.py"
    original.write_text(VOCABULARY)
    assert lint_main(["check", "--no-cache", path]) == 1
    assert "RPL401" in capsys.readouterr().out
    assert lint_main(["fix", "--write", path]) == 0  # safe: no --unsafe-fixes
    capsys.readouterr()
    assert "vocab = list(dict.fromkeys(text))" in open(path).read()  # the words came from a list
    assert verify("--", PY, path).status == 0
    diagnosed = verify("--diagnose", "--", PY, str(original))
    assert "1. runs agree with PYTHONHASHSEED fixed: str hash order is a cause" in diagnosed.out
