"""`reprolint verify` on small programs: verdicts, exit codes, failures, records."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Each test runs its program in fresh interpreters (two or three runs).
pytestmark = pytest.mark.slow

PY = sys.executable


def command(*args: str) -> list:
    return ["--", PY, *args]


PRINT_RANDOM = "import random\nprint(random.random())\n"


def test_usage_errors_exit_2(verify) -> None:
    missing = verify()
    assert missing.status == 2
    assert "give the command to run after --" in missing.err
    assert verify("--runs", "1", "--", PY, "-c", "pass").status == 2
    assert verify("--timeout", "0", "--", PY, "-c", "pass").status == 2


def test_program_output_decides_when_nothing_else_is_traced(verify, script) -> None:
    result = verify(*command(script("p.py", PRINT_RANDOM)))
    assert result.status == 1, result
    assert result.out.startswith("NOT REPRODUCIBLE")
    assert "program output differs at line 1" in result.out


def test_replay_makes_an_unseeded_program_reproducible(verify, script) -> None:
    source = PRINT_RANDOM + "import random as r\nprint(r.Random().random())\n"
    result = verify("--replay", *command(script("p.py", source)))
    assert result.status == 0, result
    assert result.out.startswith("REPRODUCIBLE with record/replay: 2 runs bit-identical (program output)")
    root = result.run_root()
    record = json.loads((root / "run-1" / "record.json").read_text())
    assert record["python_hash_seed"]
    assert [d["api"] for d in record["draws"]] == ["random.Random"]


def test_three_runs_and_json_output(verify, script) -> None:
    result = verify("--runs", "3", "--output-format", "json", *command(script("p.py", "print(1)\n")))
    assert result.status == 0, result
    data = result.json()
    assert data["verdict"] == "reproducible" and data["exit_code"] == 0
    assert [r["index"] for r in data["runs"]] == [1, 2, 3]
    assert [c["other"] for c in data["comparisons"]] == [2, 3]
    assert all(r["ok"] for r in data["runs"])


def test_nothing_to_compare_is_inconclusive(verify) -> None:
    result = verify(*command("-c", "pass"))
    assert result.status == 2
    assert result.out.startswith("INCONCLUSIVE")


def test_a_crashing_run_is_reported_with_its_exit_code_and_stderr(verify, script) -> None:
    path = script("crash.py", "import sys\nprint('step 1')\nsys.stderr.write('CUDA out of memory\\n')\nsys.exit(3)\n")
    result = verify(*command(path))
    assert result.status == 2
    assert result.out.startswith("FAILED: run 1 exited with code 3")
    assert "CUDA out of memory" in result.out
    assert "records kept under .reprolint/runs/" in result.out
    assert (result.run_root() / "run-1" / "stdout.txt").read_text() == "step 1\n"


def test_a_command_that_cannot_start_fails(verify) -> None:
    result = verify("--", "reprolint-no-such-program")
    assert result.status == 2
    assert result.out.startswith("FAILED: run 1 exited with code 127")
    assert "No such file or directory" in result.out


def test_only_a_metric_differs(verify, script) -> None:
    source = (
        "import random\nimport reprolint.runtime as rt\n"
        "rt.metric('accuracy', 0.5)\nrt.metric('per_class', [0.5, random.random()])\n"
    )
    result = verify(*command(script("m.py", source)))
    assert result.status == 1, result
    assert result.out.startswith("NOT REPRODUCIBLE: metric per_class: 1 of 2 differ\n")


def test_a_run_past_its_timeout_is_stopped(verify) -> None:
    start = time.monotonic()
    result = verify("--timeout", "1", *command("-c", "import time; time.sleep(60)"))
    assert result.status == 2
    assert "FAILED: run 1 timed out after" in result.out
    assert time.monotonic() - start < 30


def test_a_missing_artifact_fails_the_run(verify) -> None:
    result = verify("--artifact", "model.pt", *command("-c", "print(1)"))
    assert result.status == 2
    assert "FAILED: run 1 did not write model.pt" in result.out


def test_artifacts_are_copied_per_run(verify, script) -> None:
    path = script("w.py", "import random\nopen('out.txt', 'w').write(str(random.random()))\n")
    result = verify("--artifact", "out.txt", *command(path))
    assert result.status == 1
    assert "out.txt: file contents differ" in result.out
    root = result.run_root()
    first = (root / "run-1" / "artifacts" / "out.txt").read_text()
    second = (root / "run-2" / "artifacts" / "out.txt").read_text()
    assert first != second
    assert json.loads((root / "verify.json").read_text())["verdict"] == "differs"


def test_existing_sitecustomize_still_runs(verify, script, tmp_path: Path, monkeypatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import os\nopen(os.path.join(os.environ['MARK_DIR'], 'mark-%d' % os.getpid()), 'w').close()\n"
    )
    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("MARK_DIR", str(marks))
    result = verify(*command(script("p.py", "import sys\nprint(sys.modules['sitecustomize'].__file__)\n")))
    assert result.status == 0, result
    assert len(list(marks.iterdir())) == 2
    stdout = (result.run_root() / "run-1" / "stdout.txt").read_text()
    assert stdout.strip() == str(site / "sitecustomize.py")


def test_ctrl_c_stops_the_runs_and_keeps_the_records(tmp_path: Path, default_signals) -> None:
    pid_file = tmp_path / "child.pid"
    program = tmp_path / "slow.py"
    program.write_text(
        "import os, time\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(60)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPROLINT_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "reprolint.cli", "verify", "--", PY, str(program)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=default_signals,
    )
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the program never started"
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, (out, err)
    assert out.startswith("INTERRUPTED")
    child = int(pid_file.read_text())
    try:
        os.kill(child, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive, "the training process was left running"
    assert list((tmp_path / ".reprolint" / "runs").glob("*/run-1/stderr.txt"))
