"""`install()` pins PYTHONHASHSEED by one re-exec when the program depends on str hash
order and nothing set it (issue 27 item 2), under the launch styles users have."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = """\
import os
import reprolint.runtime

print("start", os.environ.get("PYTHONHASHSEED"), flush=True)
reprolint.runtime.install(seed=0{extra})
words = "the quick brown fox jumps over the lazy dog".split()
vocab = list(set(words))
print("order", os.environ.get("PYTHONHASHSEED"), vocab, flush=True)
"""
NO_SETS = PROGRAM.replace("list(set(words))", "sorted(words)")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "REPROLINT_HASH_SEED")}
    env.update(extra)
    return env


def _run(args, cwd: Path, stdin: "str | None" = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=240, env=_env(**env),
    )


def _orders(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("order")]


def test_a_script_is_restarted_once_with_the_hash_seed_pinned(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(PROGRAM.format(extra=""))
    first = _run([sys.executable, "train.py", "--lr", "1"], tmp_path)
    second = _run([sys.executable, "train.py", "--lr", "1"], tmp_path)
    assert first.returncode == 0, first.stderr
    # What ran before install() ran twice: once unpinned, once pinned; the rest once.
    assert first.stdout.splitlines()[:2] == ["start None", "start 0"]
    [order] = _orders(first.stdout)
    assert order.startswith("order 0 ") and _orders(second.stdout) == [order]


def test_python_dash_m_is_restarted_as_a_module(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(PROGRAM.format(extra=""))
    result = _run([sys.executable, "-m", "pkg"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["start None", "start 0"]
    assert _orders(result.stdout)[0].startswith("order 0 ")


def test_torchrun_ranks_are_each_restarted_in_place(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    torchrun = shutil.which("torchrun", path=str(Path(sys.executable).parent)) or shutil.which("torchrun")
    if torchrun is None:
        pytest.skip("torchrun not installed")
    # each rank writes its order to a file of its own: two processes printing to one pipe
    # can interleave their lines on a loaded machine
    ranked = PROGRAM.format(extra="").replace(
        'print("order", os.environ.get("PYTHONHASHSEED"), vocab, flush=True)',
        'open(f"order-{os.environ[\'RANK\']}.txt", "w").write(f"order {os.environ.get(\'PYTHONHASHSEED\')} {vocab}")',
    )
    assert ranked != PROGRAM.format(extra="")
    (tmp_path / "train.py").write_text(ranked)
    result = _run([torchrun, "--nproc_per_node=2", "--master_port=0", "train.py"], tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    orders = [(tmp_path / f"order-{rank}.txt").read_text() for rank in (0, 1)]
    assert orders[0] == orders[1] and orders[0].startswith("order 0 ")


def test_a_program_read_from_stdin_is_told_what_to_set(tmp_path: Path) -> None:
    result = _run([sys.executable, "-"], tmp_path, stdin=PROGRAM.format(extra=""))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "start None" and _orders(result.stdout)[0].startswith("order None")
    assert "read from stdin" in result.stderr and "PYTHONHASHSEED=0 python - < script.py" in result.stderr


@pytest.mark.parametrize(("extra", "env"), [(", hash_seed=False", {}), ("", {"REPROLINT_HASH_SEED": "off"})])
def test_the_restart_can_be_turned_off(tmp_path: Path, extra: str, env: dict) -> None:
    (tmp_path / "train.py").write_text(PROGRAM.format(extra=extra))
    result = _run([sys.executable, "train.py"], tmp_path, **env)
    assert result.stdout.splitlines()[0] == "start None"
    assert _orders(result.stdout)[0].startswith("order None")
    assert "start 0" not in result.stdout


def test_no_restart_when_nothing_depends_on_str_hashing_or_the_seed_is_set(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(NO_SETS.format(extra=""))
    assert _run([sys.executable, "train.py"], tmp_path).stdout.splitlines()[:2] == ["start None", "order None " + repr(sorted("the quick brown fox jumps over the lazy dog".split()))]
    (tmp_path / "vocab.py").write_text(PROGRAM.format(extra=""))
    pinned = _run([sys.executable, "vocab.py"], tmp_path, PYTHONHASHSEED="5")
    assert pinned.stdout.splitlines()[0] == "start 5" and _orders(pinned.stdout)[0].startswith("order 5")


def test_install_from_an_imported_module_never_restarts(tmp_path: Path) -> None:
    (tmp_path / "setup_run.py").write_text(PROGRAM.format(extra=""))
    (tmp_path / "main.py").write_text("import setup_run\nwords = {'a', 'b'}\nprint(list(words))\n")
    result = _run([sys.executable, "main.py"], tmp_path)
    assert result.stdout.splitlines()[0] == "start None" and "start 0" not in result.stdout
