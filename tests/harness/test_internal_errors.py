"""A bug in reprolint's own harness code exits 2 with one line, never 1 (issue 15 item 16).

Exit status 1 means "runs differ" to CI; a crash must never read as that verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reprolint.cli import main

PY = sys.executable


def _broken(*args: object, **kwargs: object) -> None:
    raise RuntimeError("boom in the harness")


# (module, attribute, command line): the code each command runs after its options parse.
CASES = [
    ("reprolint.harness.verify", "verify", ["verify", "--", PY, "-c", "pass"]),
    ("reprolint.harness.report", "render_text", ["verify", "--", PY, "-c", "pass"]),
    ("reprolint.harness.profile", "profile", ["profile", "--", PY, "-c", "pass"]),
    ("reprolint.harness.variance", "variance", ["variance", "--runs", "2", "--", PY, "-c", "pass"]),
    ("reprolint.harness._cli_common", "split_command", ["verify", "--", PY, "-c", "pass"]),
    ("reprolint.harness._cli_common", "split_command", ["variance", "--", PY, "-c", "pass"]),
    ("reprolint.harness._cli_common", "split_command", ["profile", "--", PY, "-c", "pass"]),
]


@pytest.mark.parametrize("module, name, argv", CASES, ids=[f"{m}.{n}-{argv[0]}" for m, n, argv in CASES])
def test_an_internal_error_exits_2_with_one_clear_line(
    module: str, name: str, argv: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPROLINT_DEBUG", raising=False)
    monkeypatch.setattr(f"{module}.{name}", _broken)
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, err
    assert "reprolint: internal error: RuntimeError: boom in the harness" in err
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if "internal error" in line]) == 1


def test_the_traceback_is_shown_with_reprolint_debug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REPROLINT_DEBUG", "1")
    monkeypatch.setattr("reprolint.harness.verify.verify", _broken)
    assert main(["verify", "--", PY, "-c", "pass"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "boom in the harness" in err


def test_runs_that_differ_still_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "p.py"
    script.write_text("import random\nprint(random.random())\n")
    assert main(["verify", "--", PY, str(script)]) == 1
    assert capsys.readouterr().out.startswith("NOT REPRODUCIBLE")
