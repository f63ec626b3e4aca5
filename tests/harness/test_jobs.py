"""`--jobs N`: runs side by side on this machine, same verdicts, every run stopped on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reprolint.harness.backends import max_overlap, parse_resources

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable

SLEEPY_SEEDED = """
import random, time
random.seed(7)
time.sleep(1.5)
print("value", random.random())
"""

UNSEEDED = """
import random, time
time.sleep(1.5)
print("value", random.random())
"""


def _script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return name


def test_parallel_runs_give_the_verdicts_of_runs_in_turn_and_say_they_overlapped(verify, tmp_path: Path) -> None:
    seeded = _script(tmp_path, "seeded.py", SLEEPY_SEEDED)
    unseeded = _script(tmp_path, "unseeded.py", UNSEEDED)
    in_turn = verify("--output-format", "json", "--", PY, seeded)
    side_by_side = verify("--jobs", "2", "--output-format", "json", "--", PY, seeded)
    assert in_turn.json()["verdict"] == side_by_side.json()["verdict"] == "reproducible", side_by_side
    execution = side_by_side.json()["execution"]
    assert execution["backend"] == "local" and execution["jobs"] == 2
    assert execution["overlapped"] and execution["max_concurrent"] == 2
    assert in_turn.json()["execution"] is None  # ran in turn, as before
    for run in side_by_side.json()["runs"]:
        folder = Path(run["run_dir"])
        assert folder.name in ("run-1", "run-2")
        assert (tmp_path / folder / "stdout.txt").read_text().startswith("value ")
        assert run["node"]["cpu"]
    differs = verify("--jobs", "3", "--runs", "3", "--", PY, unseeded)
    assert differs.status == 1, differs
    assert "NOT REPRODUCIBLE" in differs.out
    assert "3 runs overlapped on one machine, so their timing figures are perturbed" in differs.out


def test_parallel_runs_with_replay_record_first_then_replay_side_by_side(verify, tmp_path: Path) -> None:
    unseeded = _script(tmp_path, "unseeded.py", UNSEEDED)
    result = verify("--replay", "--jobs", "2", "--runs", "3", "--output-format", "json", "--", PY, unseeded)
    assert result.status == 0, result
    data = result.json()
    assert data["verdict"] == "reproducible"
    assert [r["index"] for r in data["runs"]] == [1, 2, 3]
    # Run 1 ran alone (it records); runs 2 and 3 replayed its record side by side.
    assert data["execution"]["max_concurrent"] == 2


@pytest.mark.parametrize("args, message", [
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--spread"], "--spread needs --backend ray"),
    (["--address", "127.0.0.1:1", "--working-dir", "upload"], "--address, --working-dir need --backend ray"),
    (["--backend", "ray", "--run-resources", "num_cpus"], "--run-resources: expected NAME=AMOUNT"),
    (["--jobs", "2", "--artifact", "model.pt"], "--artifact needs --jobs 1"),
    (["--jobs", "2", "--show-output"], "--show-output needs --jobs 1 and the local backend"),
])
def test_usage_errors_name_the_option(verify, args, message) -> None:
    result = verify(*args, "--", PY, "-c", "pass")
    assert result.status == 2
    assert message in result.err


def test_variance_jobs_usage_error(tmp_path: Path, monkeypatch, capsys) -> None:
    from reprolint.harness.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["variance", "--spread", "--", PY, "-c", "pass"]) == 2
    assert "--spread needs --backend ray" in capsys.readouterr().err


def test_ray_backend_without_ray_names_the_extra(verify, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` sees without the extra
    result = verify("--backend", "ray", "--", PY, "-c", "pass")
    assert result.status == 2
    assert "pip install 'reprolint[ray]'" in result.err


def test_parse_resources_and_overlap() -> None:
    assert parse_resources("num_cpus=4, num_gpus=1,accel=0.5") == {"num_cpus": 4.0, "num_gpus": 1.0, "accel": 0.5}
    assert max_overlap([(0, 2), (1, 3), (2.5, 4)]) == 2
    assert max_overlap([(0, 1), (1, 2)]) == 1  # one ends as the next starts
    assert max_overlap([]) == 0


PID_WRITER = """
import os, sys, time
open(sys.argv[1] + "." + str(os.getpid()), "w").close()
time.sleep(120)
"""


@pytest.mark.slow
def test_sigterm_stops_every_parallel_run(tmp_path: Path) -> None:
    (tmp_path / "sleeper.py").write_text(PID_WRITER)
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPROLINT_")}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen(
        [PY, "-m", "reprolint", "verify", "--jobs", "3", "--runs", "3", "--output-format", "json",
         "--", PY, "sleeper.py", str(tmp_path / "pid")],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("pid.*"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    pids = [int(p.suffix[1:]) for p in tmp_path.glob("pid.*")]
    assert len(pids) == 3
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    data = json.loads(out)
    assert data["verdict"] == "interrupted"
    assert sorted(r["index"] for r in data["runs"]) == [1, 2, 3]
    assert all(r["interrupted"] for r in data["runs"])
    assert any("SIGTERM" in w for w in data["warnings"])
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
