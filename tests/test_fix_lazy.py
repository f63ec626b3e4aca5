"""`check` pays for fixes only when it prints them: the text formats learn whether a
finding is fixable (and at which level) without any fix being computed."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths, check_sources
from reprolint.checks.registry import all_rules
from reprolint.cli import main
from reprolint.config import Settings
from reprolint.fixes.planning import FixPlanner
from reprolint.model import Diagnostic

REPO = Path(__file__).resolve().parent.parent


def _levels(diagnostics: list[Diagnostic]) -> list[tuple]:
    return [
        (d.path, d.code, d.span, d.fix.applicability if d.fix else None) for d in diagnostics
    ]


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_FIX_STRICT", "1")


def _no_realising(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self, action):  # type: ignore[no-untyped-def]
        raise AssertionError(f"a fix was realised: {action.title}")

    monkeypatch.setattr(FixPlanner, "realise", refuse)


def test_text_check_realises_no_fix(cli, project, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project({"train.py": "import torch\nimport glob\nx = torch.randn(3)\nfiles = glob.glob('*')\nprint(files[0])\n"})
    _no_realising(monkeypatch)
    for fmt in ("text", "concise", "github"):
        result = cli("check", "--output-format", fmt, ".", cwd=root)
        assert result.status == 1, result.out
    summary = cli("check", ".", cwd=root).out.splitlines()[-1]
    assert summary == "Found 2 problems (2 fixable with `reprolint fix`)."
    # JSON shows the edits, so it realises them (an internal error here: exit 2).
    result = cli("check", "--output-format", "json", ".", cwd=root)
    assert result.status == 2 and "internal error: AssertionError: a fix was realised" in result.err


@pytest.mark.parametrize("style", ["hooks", "inline"])
def test_availability_matches_the_realised_fixes_on_the_corpus(style: str) -> None:
    settings = Settings(fix_style=style)
    paths = [str(REPO / "corpus")]
    full = check_paths(paths, settings, fix_edits=True).diagnostics
    lazy = check_paths(paths, settings, fix_edits=False).diagnostics
    assert _levels(lazy) == _levels(full)
    assert all(not d.fix or not d.fix.edits for d in lazy)


@pytest.mark.parametrize("style", ["hooks", "inline"])
def test_availability_matches_the_realised_fixes_on_rule_examples(style: str) -> None:
    settings = Settings(fix_style=style)
    for rule in all_rules():
        for example in rule.INVALID:
            sources = {"main.py": example.source, **dict(example.files)}
            full = check_sources(sources, settings, fix_edits=True)
            lazy = check_sources(sources, settings, fix_edits=False)
            assert _levels(lazy) == _levels(full), (rule.code, example.source)
