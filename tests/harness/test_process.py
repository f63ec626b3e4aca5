"""The harness's process handling (`harness/process.py`), shared by verify, profile and
variance: no process is left behind on any way out of a run, records are bounded and
git-ignored, and an unwritable or vanished records folder is a clear message."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from reprolint.cli import main as reprolint_main
from reprolint.harness import process

PY = sys.executable

# A training command whose main process leaves a worker behind: the worker sleeps on
# after the main process ends (normal exit), or both sleep (to be stopped). Workers in
# a session of their own escape the run's process group.
LEAVES_A_CHILD = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                         start_new_session={new_session})
with open(os.environ["PIDS"], "a") as f:
    f.write(f"{{os.getpid()}} {{child.pid}}\\n")
print("trained")
time.sleep({sleep})
"""


def alive(pid: int) -> bool:
    """Running (a zombie that init has not reaped yet does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"


def pids(path: Path) -> List[int]:
    return [int(p) for line in path.read_text().splitlines() for p in line.split()] if path.exists() else []


def wait_for(path: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while len(pids(path)) < count:
        assert time.monotonic() < deadline, "the program never started"
        time.sleep(0.05)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith("REPROLINT_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("PIDS", str(tmp_path / "pids.txt"))
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("new_session", [False, True], ids=["same-group", "own-session"])
def test_children_still_running_at_a_normal_exit_are_stopped(workdir: Path, capsys, new_session: bool) -> None:
    # own-session: a launcher that starts its workers in sessions of their own (torchrun
    # does), out of reach of the run's process group.
    program = workdir / "train.py"
    program.write_text(LEAVES_A_CHILD.format(sleep=0, new_session=new_session))
    status = reprolint_main(["verify", "--", PY, str(program)])
    assert status == 0, capsys.readouterr()
    found = pids(workdir / "pids.txt")
    assert len(found) == 4  # two runs: main and child each
    assert not [pid for pid in found if alive(pid)], "a worker of the program was left running"


@pytest.mark.slow
def test_a_timeout_stops_the_whole_group(workdir: Path, capsys) -> None:
    program = workdir / "train.py"
    program.write_text(LEAVES_A_CHILD.format(sleep=120, new_session=True))
    status = reprolint_main(["verify", "--timeout", "3", "--", PY, str(program)])
    assert status == 2
    assert "FAILED: run 1 timed out after" in capsys.readouterr().out
    found = pids(workdir / "pids.txt")
    assert found and not [pid for pid in found if alive(pid)]


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
@pytest.mark.parametrize("command", ["verify", "profile", "variance"])
def test_a_signal_to_reprolint_leaves_no_process_behind(
    workdir: Path, sig: int, command: str, default_signals
) -> None:
    program = workdir / "train.py"
    program.write_text(LEAVES_A_CHILD.format(sleep=120, new_session=True))
    extra = ["--runs", "2"] if command == "variance" else []
    proc = subprocess.Popen(
        [PY, "-m", "reprolint.cli", command, *extra, "--", PY, str(program)],
        cwd=workdir, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=default_signals,
    )
    wait_for(workdir / "pids.txt", 2)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, (out, err)
    assert "Traceback" not in err, err
    assert "INTERRUPTED" in out, (out, err)
    found = pids(workdir / "pids.txt")
    assert not [pid for pid in found if alive(pid)], "the training process tree was left running"


@pytest.mark.slow
def test_a_program_that_deletes_the_records_does_not_crash_verify(workdir: Path, capsys) -> None:
    program = workdir / "clean.py"
    program.write_text("import shutil\nshutil.rmtree('.reprolint')\nprint('cleaned')\n")
    status = reprolint_main(["verify", "--", PY, str(program)])
    captured = capsys.readouterr()
    assert status == 2, captured
    assert captured.out.startswith("FAILED: run 1 deleted reprolint's records folder"), captured
    assert "Traceback" not in captured.err


def test_an_unwritable_records_folder_is_a_clear_error(workdir: Path, capsys) -> None:
    # A read-only working directory (root ignores permissions, so a file stands in
    # for the folder: mkdir fails the same way).
    (workdir / ".reprolint").write_text("not a folder")
    for command in (["verify"], ["profile"], ["variance", "--runs", "2"]):
        status = reprolint_main([*command, "--", PY, "-c", "pass"])
        captured = capsys.readouterr()
        assert status == 2, captured
        assert f"reprolint {command[0]}: error: cannot write the run records under .reprolint/runs in {workdir}" in captured.err
        assert "run from a directory you can write to" in captured.err
        assert "Traceback" not in captured.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to a read-only directory")
def test_a_read_only_working_directory_is_a_clear_error(workdir: Path, capsys) -> None:
    workdir.chmod(0o555)
    try:
        status = reprolint_main(["verify", "--", PY, "-c", "pass"])
    finally:
        workdir.chmod(0o755)
    captured = capsys.readouterr()
    assert status == 2 and "cannot write the run records" in captured.err


def test_records_are_git_ignored_and_bounded(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPROLINT_KEEP_RUNS", "2")
    made = [process.new_run_root() for _ in range(3)]
    left = process.sessions()
    assert left == made[-2:]
    assert (workdir / ".reprolint" / ".gitignore").read_text().splitlines()[-1] == "*"
    # A folder reprolint did not name is never pruned.
    (workdir / ".reprolint" / "runs" / "mine").mkdir()
    process.new_run_root()
    assert (workdir / ".reprolint" / "runs" / "mine").is_dir()
    monkeypatch.setenv("REPROLINT_KEEP_RUNS", "0")
    for _ in range(3):
        process.new_run_root()
    assert len(process.sessions()) == 5


def test_clean_runs_removes_the_sessions(workdir: Path, capsys) -> None:
    for _ in range(2):
        process.new_run_root()
    status = reprolint_main(["clean", "--runs"])
    captured = capsys.readouterr()
    assert status == 0, captured
    assert process.sessions() == []
    assert "removed 2 run records" in captured.out + captured.err


@pytest.mark.slow
def test_show_output_streams_the_program_output_and_keeps_it(workdir: Path, capsys) -> None:
    status = reprolint_main(["verify", "--show-output", "--output-format", "json", "--",
                             PY, "-c", "import sys; print('epoch 1 done'); print('warn', file=sys.stderr)"])
    captured = capsys.readouterr()
    assert status == 0, captured
    assert captured.err.count("epoch 1 done") == 2 and captured.err.count("warn") == 2
    assert captured.out.lstrip().startswith("{")  # the report alone on stdout
    [root] = process.sessions()
    assert (root / "run-2" / "stdout.txt").read_text() == "epoch 1 done\n"
    assert (root / "run-2" / "stderr.txt").read_text() == "warn\n"


def test_live_line() -> None:
    from reprolint.harness._cli_common import live_line

    assert live_line("run 1/2", 12.34, 0, None) == "run 1/2  running 12.3 s"
    assert live_line("run 1/2", 12.34, 1, 0.5) == "run 1/2  running 12.3 s  1 step  loss 0.5"
    assert live_line("run 2/2", 3, 1200, 0.123456789) == "run 2/2  running 3.0 s  1,200 steps  loss 0.123457"


@pytest.mark.parametrize("live", [True, False])
def test_progress_lines_overwrite_each_other_only_when_live(live: bool) -> None:
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from reprolint.harness._cli_common import show_progress

    stream = io.StringIO()
    err = Console(file=stream, width=60, force_terminal=True, color_system=None)
    run = SimpleNamespace(seconds=2.0, live_steps=3, live_loss=0.5)
    for event in ("start", "tick", "end"):
        show_progress(err, event, "run 1/2", run, live, lambda: "run 1/2  identical")
    shown = stream.getvalue()
    if live:
        assert shown == (
            "run 1/2  running…\r"
            + "run 1/2  running 2.0 s  3 steps  loss 0.5".ljust(59) + "\r"
            + " " * 59 + "\r"
            + "run 1/2  identical\n"
        )
    else:
        assert shown == "run 1/2  identical\n"


TRAINS_SLOWLY = """
import time, torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.ones(8, 4)
for step in range(8):
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    time.sleep(0.4)
"""


@pytest.mark.slow
def test_progress_ticks_carry_steps_and_loss_from_the_growing_trace(workdir: Path) -> None:
    pytest.importorskip("torch")
    from reprolint.harness.verify import verify

    program = workdir / "train.py"
    program.write_text(TRAINS_SLOWLY)
    seen = []

    def progress(event: str, run, total: int) -> None:  # type: ignore[no-untyped-def]
        if event == "tick":
            seen.append((run.index, run.seconds, run.live_steps, run.live_loss))

    result = verify([PY, str(program)], progress=progress)
    assert result.verdict == "reproducible"
    first = [s for s in seen if s[0] == 1]
    assert [s[2] for s in first] == sorted(s[2] for s in first)  # steps only grow
    assert any(0 < steps < 8 for _, _, steps, _ in first), seen  # seen while it ran
    assert all(loss is not None for _, _, steps, loss in first if steps)
    assert [s[1] for s in first] == sorted(s[1] for s in first)
