"""The cyclic collector is paused while reprolint parses and walks trees (a sixth of a
cold check's time: reprolint/_gc.py), and a library caller's own setting survives."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any, Iterator

import pytest

import reprolint.api as api
from reprolint.config import Settings
from reprolint.fixes.engine import fix_files

SCRIPT = "import numpy as np\nx = np.random.rand(3)\n"


@pytest.fixture
def collector_state() -> Iterator[None]:
    before = gc.isenabled()
    yield
    (gc.enable if before else gc.disable)()


@pytest.fixture
def seen_during_analysis(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    seen: list[bool] = []
    real = api.collect_facts

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "collect_facts", spy)
    return seen


@pytest.mark.parametrize("caller_enabled", [True, False])
def test_check_pauses_the_collector_and_restores_the_callers_setting(
    tmp_path: Path, collector_state: None, seen_during_analysis: list[bool], caller_enabled: bool,
) -> None:
    (tmp_path / "train.py").write_text(SCRIPT)
    (gc.enable if caller_enabled else gc.disable)()
    result = api.check_paths([str(tmp_path)], Settings(root=str(tmp_path)), jobs=1)
    assert [d.code for d in result.diagnostics] == ["RPL101"]
    assert seen_during_analysis == [False]
    assert gc.isenabled() is caller_enabled


def test_fix_pauses_the_collector_and_turns_it_back_on(
    tmp_path: Path, collector_state: None, seen_during_analysis: list[bool],
) -> None:
    (tmp_path / "train.py").write_text(SCRIPT)
    gc.enable()
    report = fix_files([str(tmp_path)], Settings(root=str(tmp_path)), unsafe=True)
    assert report.fixed == 1
    assert seen_during_analysis and not any(seen_during_analysis)
    assert gc.isenabled()


def test_a_failing_analysis_still_turns_the_collector_back_on(
    tmp_path: Path, collector_state: None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "train.py").write_text(SCRIPT)

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "diagnose_analyses", boom)
    gc.enable()
    with pytest.raises(KeyboardInterrupt):
        api.check_paths([str(tmp_path)], Settings(root=str(tmp_path)), jobs=1)
    assert gc.isenabled()
