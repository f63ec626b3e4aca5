"""--jobs: the same findings in the same order on any number of processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths
from reprolint.parallel import IN_PROCESS_BELOW, run_ordered

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


def _square(x: int) -> int:
    return x * x


def test_results_keep_the_input_order_whatever_the_workers_do() -> None:
    items = list(range(200))
    seen: list[int] = []
    assert run_ordered(_square, items, 3, lambda i, r: seen.append(i)) == [x * x for x in items]
    assert sorted(seen) == items


def test_small_runs_stay_in_process(monkeypatch) -> None:
    def no_pool(*args, **kwargs):
        raise AssertionError("a worker was started")

    from reprolint import parallel

    monkeypatch.setattr(parallel, "_Worker", no_pool)
    items = list(range(IN_PROCESS_BELOW - 1))
    assert run_ordered(_square, items, 8) == [x * x for x in items]
    assert run_ordered(_square, list(range(100)), 1) == [x * x for x in range(100)]


_WARMED: list[str] = []


def _warmed_already(x: int) -> int:
    # In a forked worker: the parent's warm-up ran before the fork, so its effect is here.
    return x * 10 + len(_WARMED)


def test_warm_up_runs_once_in_the_parent_before_the_workers_start() -> None:
    _WARMED.clear()
    calls: list[str] = []

    def warm_up() -> None:
        calls.append("warm")
        _WARMED.append("loaded")

    items = list(range(IN_PROCESS_BELOW + 4))
    assert run_ordered(_warmed_already, items, 2, warm_up=warm_up) == [x * 10 + 1 for x in items]
    assert calls == ["warm"]
    _WARMED.clear()


def test_in_process_runs_skip_the_warm_up() -> None:
    calls: list[str] = []
    assert run_ordered(_square, [1, 2, 3], 8, warm_up=lambda: calls.append("warm")) == [1, 4, 9]
    assert run_ordered(_square, list(range(40)), 1, warm_up=lambda: calls.append("warm")) == [x * x for x in range(40)]
    assert calls == []


def test_jobs_do_not_change_the_findings() -> None:
    one = check_paths([str(CORPUS)], jobs=1)
    assert one.files_checked > IN_PROCESS_BELOW
    for jobs in (2, 3):
        many = check_paths([str(CORPUS)], jobs=jobs)
        assert many.diagnostics == one.diagnostics
        assert many.files_checked == one.files_checked


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_cli_rejects_a_bad_jobs_value(jobs: str, capsys) -> None:
    from reprolint.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["check", str(CORPUS), "--jobs", jobs])
    assert exc.value.code == 2
    assert "--jobs" in capsys.readouterr().err
