"""Run records that leave the project (issue 30, items 1 and 5): `.reprolint` or
`.reprolint/runs` committed as a link, a planted session whose run group is a link,
a forged `run.json`. What a user sees: a refusal (exit 2, the link named), nothing
changed outside the project, and `--resume` running again what it cannot verify.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = (
    "import random\n"
    "from reprolint.runtime import metric\n"
    "metric('accuracy', random.random())\n"
)
SESSION = "20250101-000000-0000001234"


def reprolint(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "1", "REPROLINT_KEEP_RUNS": "1"}
    for name in ("REPROLINT_DEBUG", "REPROLINT_SEED", "REPROLINT_MODE", "REPROLINT_RECORD", "PYTHONHASHSEED"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "reprolint", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=env)


def _tree(folder: Path) -> dict[str, str]:
    found = {}
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(top) / name
            found[str(path.relative_to(folder))] = path.read_text() if path.is_file() else "dir"
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "project" / "train.py").write_text(PROGRAM)
    return tmp_path / "project"


def _old_sessions(folder: Path, count: int = 3) -> None:
    for i in range(count):
        session = folder / f"2024010{i}-000000-0000001234"
        session.mkdir(parents=True)
        (session / "keep.txt").write_text("precious\n")


# -- 1: run folders behind symlinks ------------------------------------------------------

def test_clean_runs_refuses_a_runs_folder_that_is_a_link(project: Path) -> None:
    outside = project.parent / "outside"
    _old_sessions(outside)
    before = _tree(outside)
    (project / ".reprolint").mkdir()
    (project / ".reprolint" / "runs").symlink_to(outside, target_is_directory=True)
    done = reprolint("clean", "--runs", cwd=project)
    assert done.returncode == 2, done
    assert "reprolint clean: error: .reprolint/runs is a symbolic link" in done.stderr, done
    assert _tree(outside) == before


def test_verify_refuses_a_records_folder_that_is_a_link(project: Path) -> None:
    outside = project.parent / "outside"
    _old_sessions(outside / "runs")
    before = _tree(outside)
    (project / ".reprolint").symlink_to(outside, target_is_directory=True)
    done = reprolint("verify", "--", sys.executable, "-c", "pass", cwd=project)
    assert done.returncode == 2, done
    assert "reprolint verify: error: .reprolint is a symbolic link" in done.stderr, done
    assert _tree(outside) == before  # no records, no .gitignore, no session pruned


def test_verify_refuses_a_runs_folder_that_is_a_file(project: Path) -> None:
    (project / ".reprolint").mkdir()
    (project / ".reprolint" / "runs").write_text("not a folder\n")
    done = reprolint("verify", "--", sys.executable, "-c", "pass", cwd=project)
    assert done.returncode == 2, done
    assert "reprolint verify: error: cannot write the run records under .reprolint/runs" in done.stderr, done


# -- 5: resumed records are authenticated; deletion never follows a link -----------------

def _variance(project: Path, *extra: str) -> subprocess.CompletedProcess:
    return reprolint("variance", "--runs", "2", "--mode", "fixed", "--output-format", "json", *extra,
                     "--", sys.executable, "train.py", cwd=project)


def _plant_session(project: Path, group_target: Path) -> None:
    """A session as a repository could commit it: the spec of the command, its group a
    link to a folder outside, whose run-1 holds a finished record."""
    session = project / ".reprolint" / "runs" / SESSION
    session.mkdir(parents=True)
    spec = {"kind": "variance", "command": [sys.executable, "train.py"], "cwd": str(project),
            "mode": "fixed", "seed": 0, "deterministic": False, "runs": 2}
    (session / "variance.json").write_text(json.dumps(spec))
    for index in (1, 2):
        run = group_target / f"run-{index}"
        run.mkdir(parents=True)
        (run / "run.json").write_text(json.dumps({
            "group": "fixed", "index": index, "seed": 0, "run_dir": str(run), "returncode": 0,
            "metrics": {"accuracy": 0.5}, "losses": [1.0],
        }))
    (session / "fixed").symlink_to(group_target, target_is_directory=True)


def test_resume_never_deletes_through_a_planted_run_group_link(project: Path) -> None:
    outside = project.parent / "outside"
    _plant_session(project, outside)
    before = _tree(outside)
    done = _variance(project, "--resume")
    assert _tree(outside) == before, done
    assert done.returncode == 0, done
    data = json.loads(done.stdout)
    assert [run["resumed"] for run in data["runs"]] == [False, False]  # both really ran
    assert "nothing to resume" in " ".join(data["warnings"])
    assert data["run_root"] != str(project / ".reprolint" / "runs" / SESSION)


def test_resume_refuses_a_run_group_that_became_a_link(project: Path) -> None:
    outside = project.parent / "outside"
    first = _variance(project)
    assert first.returncode == 0, first
    root = project / json.loads(first.stdout)["run_root"]
    group = root / "fixed"
    os.rename(group, outside / "fixed")
    (outside / "fixed" / "run-2" / "run.json").unlink()  # a run to do again
    group.symlink_to(outside / "fixed", target_is_directory=True)
    before = _tree(outside)
    done = _variance(project, "--resume")
    assert _tree(outside) == before, done
    assert done.returncode == 2, done
    assert "fixed is a symbolic link" in done.stderr, done


def test_a_forged_run_record_is_run_again_not_believed(project: Path) -> None:
    first = _variance(project)
    assert first.returncode == 0, first
    root = project / json.loads(first.stdout)["run_root"]
    accuracies = [run["metrics"]["accuracy"] for run in json.loads(first.stdout)["runs"]]
    for index in (1, 2):  # forge: both runs "finished" with the same accuracy
        path = root / "fixed" / f"run-{index}" / "run.json"
        record = json.loads(path.read_text())
        record["metrics"] = {"accuracy": 0.25}
        path.write_text(json.dumps(record))
    done = _variance(project, "--resume")
    assert done.returncode == 0, done
    data = json.loads(done.stdout)
    assert [run["resumed"] for run in data["runs"]] == [False, False]
    assert [run["metrics"]["accuracy"] for run in data["runs"]] == accuracies  # fixed seed: ran again
    # an untouched record is still kept
    again = _variance(project, "--resume")
    assert [run["resumed"] for run in json.loads(again.stdout)["runs"]] == [True, True], again
