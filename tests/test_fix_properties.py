"""Property tests: over generated programs and mutated corpus files, `fix` never raises,
never produces code that does not parse, and converges (a second run changes nothing)."""

from __future__ import annotations

import re
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reprolint.api import check_source, fix_source
from reprolint.config import Settings

hypothesmith = pytest.importorskip("hypothesmith")

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((REPO / "corpus" / "scripts").glob("*.py")) + sorted((REPO / "corpus" / "train").glob("*.py"))
STYLES = [Settings(), Settings(fix_style="inline", seed=5)]


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


def _fixable(source: str, path: str) -> list:
    return [d for d in check_source(source, path) if d.fix is not None and d.fix.edits]


def _assert_fix_is_sound(source: str, path: str, options: Settings) -> str:
    fixed = fix_source(source, path, options, unsafe_fixes=True)
    cst.parse_module(fixed)  # parses
    compile(fixed, path, "exec", dont_inherit=True)
    assert fix_source(fixed, path, options, unsafe_fixes=True) == fixed  # converged
    return fixed


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar(auto_target=False), st.sampled_from(STYLES))
def test_generated_programs(source: str, options: Settings) -> None:
    try:
        compile(source, "gen.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return  # the grammar allows a few programs the compiler rejects
    _assert_fix_is_sound(source, "gen.py", options)


_RNG_LINES = st.sampled_from([
    "import torch", "import numpy as np", "import random", "torch.manual_seed(0)",
    "np.random.seed(1)", "random.seed()", "x = torch.randn(3)", "y = np.random.rand(2)",
    "rng = np.random.default_rng()", "z = random.random()", "model = torch.nn.Linear(2, 2)",
    "if args.seed:\n    torch.manual_seed(args.seed)", "import argparse",
    "p = argparse.ArgumentParser()\np.add_argument('--seed', type=int)\nargs = p.parse_args()",
    "def f():\n    return torch.rand(1)", "f()", "import time\ntorch.manual_seed(int(time.time()))",
])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_RNG_LINES, min_size=1, max_size=8), st.sampled_from(STYLES))
def test_programs_made_of_seeds_and_draws(lines: list[str], options: Settings) -> None:
    source = "\n".join(lines) + "\n"
    try:
        compile(source, "t.py", "exec", dont_inherit=True)
    except SyntaxError:
        return
    fixed = _assert_fix_is_sound(source, "t.py", options)
    assert not [d for d in check_source(fixed, "t.py", options) if d.fix is not None and d.fix.edits]


_SEED_CALL = re.compile(r"^(\s*)(\w[\w.]*\.(?:manual_seed|seed|set_seed)\(.*\))\s*$", re.M)


def _mutations(source: str, data: st.DataObject) -> str:
    choice = data.draw(st.sampled_from(["remove_seeds", "move_seed_down", "rename_alias", "none"]))
    if choice == "remove_seeds":
        return _SEED_CALL.sub(lambda m: f"{m.group(1)}pass", source)
    if choice == "move_seed_down":
        lines = source.splitlines(keepends=True)
        seeds = [i for i, line in enumerate(lines) if _SEED_CALL.match(line)]
        if seeds:
            i = data.draw(st.sampled_from(seeds))
            indent = re.match(r"\s*", lines[i]).group(0)
            later = [j for j in range(i + 1, len(lines)) if re.match(re.escape(indent) + r"\S", lines[j])]
            if later:
                j = data.draw(st.sampled_from(later))
                lines.insert(j + 1, lines.pop(i))
        return "".join(lines)
    if choice == "rename_alias":
        return re.sub(r"\bnp\b", "npx", source)
    return source


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SCRIPTS), st.data(), st.sampled_from(STYLES))
def test_mutated_corpus_scripts(path: Path, data: st.DataObject, options: Settings) -> None:
    source = _mutations(path.read_text(encoding="utf-8"), data)
    try:
        compile(source, path.name, "exec", dont_inherit=True)
    except SyntaxError:
        return  # a move out of a block can break it: not a program
    fixed = _assert_fix_is_sound(source, path.name, options)
    left = [d for d in check_source(fixed, path.name, options) if d.code.startswith("RPL1") and d.fix and d.fix.edits]
    assert not left, left


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_fixed_corpus_script_has_no_fixable_findings_left(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    fixed = _assert_fix_is_sound(source, path.name, Settings())
    assert not _fixable(fixed, path.name)
