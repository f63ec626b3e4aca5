"""Minor hostile inputs of issue 30: non-finite `--timeout`, a `--runs` that would
exhaust memory before the first run, `--help` into a closed pipe.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _reprolint(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "1"}
    env.pop("REPROLINT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "reprolint", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=timeout)


@pytest.mark.parametrize("command", ["verify", "profile", "variance"])
@pytest.mark.parametrize("value", ["nan", "inf", "NaN"])
def test_a_non_finite_timeout_is_refused(tmp_path: Path, command: str, value: str) -> None:
    done = _reprolint(command, "--timeout", value, "--", sys.executable, "-c", "pass", cwd=tmp_path)
    assert done.returncode == 2, done
    assert f"reprolint {command}: error: --timeout must be" in done.stderr, done.stderr
    assert not (tmp_path / ".reprolint").exists()  # refused before anything ran


@pytest.mark.parametrize("command", ["verify", "variance"])
def test_a_huge_number_of_runs_is_refused_at_once(tmp_path: Path, command: str) -> None:
    done = _reprolint(command, "--runs", "50000000", "--", sys.executable, "-c", "pass", cwd=tmp_path, timeout=60)
    assert done.returncode == 2, done
    assert "--runs must be at most 10,000, got 50,000,000" in done.stderr, done.stderr


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["verify", "--help"]])
def test_help_into_a_closed_pipe_prints_no_traceback(tmp_path: Path, args: list[str]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "reprolint", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before reprolint writes
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


MALFORMED = (
    "import os\n"
    "path = os.path.join(os.environ['REPROLINT_TRACE_DIR'], 'trace.main.jsonl')\n"
    "with open(path, 'a') as handle:\n"
    "    handle.write('[1, 2]\\n')\n"
    "    handle.write('{\"k\": \"step\", \"n\": \"one\", \"d\": 5}\\n')\n"
    "    handle.write('{\"k\": \"metric\"}\\n')\n"
    "    handle.write('{\"k\": \"init\", \"opt\": [0], \"d\": []}\\n')\n"
    "print('trained')\n"
)


def test_malformed_trace_lines_are_ignored_not_an_internal_error(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(MALFORMED)
    done = _reprolint("verify", "--", sys.executable, "train.py", cwd=tmp_path)
    assert "internal error" not in done.stderr + done.stdout, done
    assert done.returncode in (0, 2), done  # only the output to compare: its verdict
    assert "Traceback" not in done.stderr


PROGRAM = 'import random\n\nif __name__ == "__main__":\n    print(random.random())\n'


def test_show_source_with_stdin_shows_the_text_read_from_stdin(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("a = 1\nb = 2\nc = 3\nDISK_LINE = 4\n")
    env = {**os.environ, "CI": "1"}
    done = subprocess.run([sys.executable, "-m", "reprolint", "check", "--no-cache", "--show-source",
                           "--stdin-filename", "train.py", "-"], cwd=tmp_path, input=PROGRAM,
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1, done
    assert "     4 |     print(random.random())\n" in done.stdout, done.stdout
    assert "DISK_LINE" not in done.stdout


def test_show_source_decodes_a_latin1_file_as_declared(tmp_path: Path) -> None:
    (tmp_path / "lat.py").write_bytes(b"# -*- coding: latin-1 -*-\n" + PROGRAM.replace(
        "random.random())", 'random.random(), "\xe9t\xe9")').encode("latin-1"))
    done = _reprolint("check", "--no-cache", "--show-source", "lat.py", cwd=tmp_path)
    assert done.returncode == 1, done
    assert '     5 |     print(random.random(), "été")\n' in done.stdout, done.stdout
