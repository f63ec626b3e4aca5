"""The guard between a Ray worker and the command: exit status passed on, and the
command's group stopped when the worker (or the guard itself) is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reprolint.harness.backends.ray_backend import GUARD

PY = sys.executable

SLEEPER = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
open(sys.argv[1], "w").write(f"{os.getpid()} {child.pid}")
time.sleep(300)
"""

# Stands in for a Ray worker: starts the guard in a session of its own, as process.run does.
WORKER = """
import os, subprocess, sys, time
guard = subprocess.Popen([sys.executable, "-S", sys.argv[1], str(os.getpid()), "--", *sys.argv[2:]],
                         start_new_session=True)
print(guard.pid, flush=True)
time.sleep(300)
"""


def _guarded(*command: str) -> int:
    return subprocess.run([PY, "-S", str(GUARD), str(os.getpid()), "--", *command], timeout=60).returncode


def test_the_exit_status_passes_through() -> None:
    assert _guarded(PY, "-c", "import sys; sys.exit(3)") == 3
    assert _guarded(PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)") == -signal.SIGKILL
    assert _guarded(PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)") == -signal.SIGTERM
    assert _guarded("no-such-command-here") == 127


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("victim", ["worker", "guard"])
def test_a_killed_worker_or_guard_takes_the_command_and_its_children_along(tmp_path: Path, victim: str) -> None:
    (tmp_path / "sleeper.py").write_text(SLEEPER)
    pids = tmp_path / "pids"
    worker = subprocess.Popen([PY, "-c", WORKER, str(GUARD), PY, str(tmp_path / "sleeper.py"), str(pids)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert worker.stdout is not None
        guard = int(worker.stdout.readline())
        deadline = time.monotonic() + 30
        while not (pids.exists() and " " in pids.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        program, child = map(int, pids.read_text().split())
        assert _alive(program) and _alive(child)
        os.kill(worker.pid if victim == "worker" else guard, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while (_alive(program) or _alive(child)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(program) and not _alive(child)
    finally:
        worker.kill()
        worker.wait()
