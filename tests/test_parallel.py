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


def _pid(_: int) -> int:
    import os

    return os.getpid()


def test_a_caller_may_lower_the_in_process_threshold() -> None:
    import os

    items = list(range(5))
    assert set(run_ordered(_pid, items, 2)) == {os.getpid()}
    assert os.getpid() not in run_ordered(_pid, items, 2, in_process_below=2)


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


def _fixed(diagnostics) -> int:
    return sum(1 for d in diagnostics if d.fix is not None and d.fix.edits)


def test_fix_edits_are_computed_in_workers_with_the_same_result(monkeypatch) -> None:
    from reprolint import fixing

    runs: list[tuple[int, int]] = []
    real = fixing.run_ordered

    def spy(func, items, jobs, *args, **kwargs):
        runs.append((len(items), jobs))
        return real(func, items, jobs, *args, **kwargs)

    monkeypatch.setattr(fixing, "run_ordered", spy)
    one = check_paths([str(CORPUS)], jobs=1)
    assert runs == []
    assert _fixed(one.diagnostics) > 100
    two = check_paths([str(CORPUS)], jobs=2)
    assert len(runs) == 1 and runs[0][0] >= fixing._IN_PROCESS_BELOW and runs[0][1] == 2
    assert two.diagnostics == one.diagnostics


def _files(d) -> set[str]:
    changes = getattr(d.fix, "file_changes", ())
    return {path for path, _ in changes}


def test_a_fix_worker_that_dies_costs_the_fixes_in_its_file_only(monkeypatch) -> None:
    import os

    from reprolint import fixing

    one = check_paths([str(CORPUS)], jobs=1)
    doomed = sorted({path for d in one.diagnostics for path in _files(d)})[0]
    real = fixing._realise_file

    def dies_on_one(item):
        if item[0] == doomed:
            os._exit(3)  # as a segfault would: no result, no exception
        return real(item)

    monkeypatch.setattr(fixing, "_realise_file", dies_on_one)
    two = check_paths([str(CORPUS)], jobs=2)
    assert [(d.path, d.span, d.code) for d in two.diagnostics] == [(d.path, d.span, d.code) for d in one.diagnostics]
    hit = 0
    for d, reference in zip(two.diagnostics, one.diagnostics):
        if doomed in _files(reference):
            hit += 1
            assert doomed not in _files(d)
        else:
            assert d == reference
    assert hit > 0
