"""`check` and `fix` over hostile trees: no traceback, a documented exit status, nothing
changed outside the intended edits, no process left behind (issue 15).

Each generator of :mod:`hostile_trees` is run alone, then Hypothesis combines them
(derandomized, a fixed number of examples). Every command runs as a subprocess in a
session of its own, so a hang is a time-out and a leftover process is visible.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:  # as a package (tests/adversarial/__init__.py) or as a rootdir-relative module
    from . import hostile_trees
except ImportError:
    import hostile_trees  # type: ignore[no-redef]

pytestmark = pytest.mark.slow

TIMEOUT = 120
TRACEBACK = "Traceback (most recent call last)"
# A .py or .ipynb file of the project may be rewritten by `fix --write`; nothing else.
EDITABLE = (".py", ".ipynb")


def _snapshot(folder: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under ``folder``, links not followed: kind, mode, content or target."""
    found: dict[str, tuple[Any, ...]] = {}
    base = os.fsencode(folder)
    for top, dirs, files in _walk(base):
        for name in dirs + files:
            path = os.path.join(top, name)
            rel = os.path.relpath(path, base)
            info = os.lstat(path)
            if os.path.islink(path):
                found[os.fsdecode(rel)] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                found[os.fsdecode(rel)] = ("dir", info.st_mode)
            elif os.path.isfile(path):
                try:
                    with open(path, "rb") as handle:
                        content = handle.read()
                except OSError:
                    content = None
                found[os.fsdecode(rel)] = ("file", info.st_mode, content)
            else:
                found[os.fsdecode(rel)] = ("other", info.st_mode)
    return found


def _walk(base: bytes):  # os.walk without recursion: the deep_folders chain is 1,000 deep
    stack = [base]
    while stack:
        top = stack.pop()
        try:
            names = sorted(os.listdir(top))
        except OSError:
            continue
        dirs = [n for n in names if os.path.isdir(os.path.join(top, n)) and not os.path.islink(os.path.join(top, n))]
        yield top, dirs, [n for n in names if n not in dirs]
        stack.extend(os.path.join(top, n) for n in dirs)


def _forged_commands(text: str) -> list[str]:
    """Lines the Actions runner would run as workflow commands but reprolint did not
    make as annotations."""
    import re

    lines = re.split(r"\r\n|\r|\n", text)
    return [line for line in lines if re.match(r"^\s*(::|##\[)", line)
            and not re.match(r"^::(warning|error|notice) file=[^:\r\n]*,title=RPL\d{3} [a-z-]+::", line)]


def _in_cache(rel: str) -> bool:
    return rel == ".reprolint_cache" or rel.startswith(".reprolint_cache" + os.sep)


def _changes(before: dict[str, tuple[Any, ...]], after: dict[str, tuple[Any, ...]]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def _leftovers(group: int) -> list[int]:
    """Processes still in the process group a command ran in (Linux: read /proc)."""
    left = []
    for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else ():
        if not entry.name.isdigit():
            continue
        try:
            stat_line = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat_line.rsplit(")", 1)[-1].split()
        if len(fields) > 2 and int(fields[2]) == group and fields[0] != "Z":
            left.append(int(entry.name))
    return left


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    proc = subprocess.Popen(
        [sys.executable, "-m", "reprolint", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"reprolint {' '.join(args)} ran past {TIMEOUT} s")
    left = _leftovers(proc.pid)
    if left:
        os.killpg(proc.pid, signal.SIGKILL)
    assert left == [], f"reprolint {' '.join(args)} left processes behind: {left}"
    return subprocess.CompletedProcess(
        args, proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    )


def _restore_modes(folder: Path) -> None:
    for top, dirs, files in _walk(os.fsencode(folder)):
        os.chmod(top, 0o755)
        for name in dirs:
            os.chmod(os.path.join(top, name), 0o755)
    for top, dirs, files in _walk(os.fsencode(folder)):
        for name in files:
            path = os.path.join(top, name)
            if not os.path.islink(path) and os.path.isfile(path):
                os.chmod(path, 0o644)


def _remove_tree(folder: Path) -> None:
    """shutil.rmtree without recursion (Python 3.11's recurses once per level)."""
    _restore_modes(folder)
    found = list(_walk(os.fsencode(folder)))
    for top, dirs, files in reversed(found):
        for name in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(top, name))
        for name in dirs:
            with contextlib.suppress(OSError):
                os.rmdir(os.path.join(top, name))
    shutil.rmtree(folder, ignore_errors=True)


def check_tree(root: Path, names: list[str], size: int) -> None:
    """Build a tree with these ingredients and run check, fix --write and check again."""
    project, outside = hostile_trees.make_project(root)
    for name in names:
        hostile_trees.GENERATORS[name](project, outside, size)
    env = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": str(root / "xdg"), "COLUMNS": "200"}
    env.pop("FORCE_COLOR", None)
    hostile_cache_dir = "hostile_cache_dir" in names
    # planted_cache plants nothing where another ingredient made the cache folder a link
    planted = project / ".reprolint_cache" / "src-of-the-project.py"
    planted_file = not (project / ".reprolint_cache").is_symlink() and planted.is_file()
    outside_before = _snapshot(outside)
    before = _snapshot(project)

    checked = _run(["check", ".", "--show-source"], project, env)
    assert TRACEBACK not in checked.stderr + checked.stdout, checked.stderr
    if hostile_cache_dir:
        # Documented: a cache-dir that leaves the project is a configuration error.
        assert checked.returncode == 2 and "cache-dir" in checked.stderr
    else:
        assert checked.returncode == 1, (checked.stdout, checked.stderr)
        assert "train.py:6:" in checked.stdout and "RPL101" in checked.stdout, (checked.stdout, checked.stderr)
    assert _snapshot(outside) == outside_before
    changed = _changes(before, _snapshot(project))
    assert all(_in_cache(rel) for rel in changed), changed
    if "notebook_kernels" in names and not hostile_cache_dir:
        assert "kernel.ipynb:cell 1:2:5: RPL101" in checked.stdout, checked.stdout
    if "deep_folders" in names and not hostile_cache_dir:
        assert "/d/deep.py:4:11: RPL101" in checked.stdout, checked.stdout[-2000:]
    github = _run(["check", ".", "--output-format", "github"], project, env)
    assert TRACEBACK not in github.stderr + github.stdout, github.stderr
    assert _forged_commands(github.stdout) == [] and _forged_commands(github.stderr) == [], github
    if planted_file:
        assert planted.read_text() == "keep = True\n"

    middle = _snapshot(project)
    fixed = _run(["fix", ".", "--write", "--unsafe-fixes"], project, env)
    assert TRACEBACK not in fixed.stderr + fixed.stdout, fixed.stderr
    assert fixed.returncode in (0, 1, 2), fixed.returncode
    assert _snapshot(outside) == outside_before
    after = _snapshot(project)
    for rel in _changes(middle, after):
        # Only the content of existing regular source files may change (same mode).
        assert rel in middle and rel in after, f"{rel} appeared or vanished"
        assert middle[rel][0] == after[rel][0] == "file" and rel.endswith(EDITABLE), rel
        assert middle[rel][1] == after[rel][1], f"{rel}: mode changed"
        assert not _in_cache(rel), rel
    if not hostile_cache_dir:
        assert "train.py" in _changes(middle, after)

    again = _run(["check", ".", "-q"], project, env)
    assert TRACEBACK not in again.stderr + again.stdout, again.stderr
    assert again.returncode in ((2,) if hostile_cache_dir else (0, 1))
    cleaned = _run(["clean", "--runs"], project, env)
    assert TRACEBACK not in cleaned.stderr, cleaned.stderr
    assert cleaned.returncode in (0, 2)
    assert _snapshot(outside) == outside_before
    if "planted_cache" in names or "linked_cache" in names or hostile_cache_dir or "linked_records" in names:
        assert cleaned.returncode == 2  # never removes what it did not make, nor through a link
    assert (project / "train.py").exists()


CASES = sorted(hostile_trees.GENERATORS)


def _scratch() -> Path:
    """A folder outside pytest's basetemp: a tree 1,000 folders deep left behind by a
    killed run must never reach pytest's own clean-up, whose rmtree recurses per level
    (RecursionError at the end of a later session)."""
    return Path(tempfile.mkdtemp(prefix="reprolint-hostile-"))


@pytest.mark.parametrize("name", CASES)
def test_each_hostile_ingredient_alone(name: str) -> None:
    root = _scratch()
    try:
        check_tree(root, [name], size=3)
    finally:
        _remove_tree(root)


def test_linked_cache_then_planted_cache() -> None:
    """The pair another derandomized seed drew: the cache folder is a link, so nothing is
    planted in it, and check, fix and clean still write nothing outside the project."""
    root = _scratch()
    try:
        check_tree(root, ["linked_cache", "planted_cache"], size=3)
    finally:
        _remove_tree(root)


@settings(
    max_examples=8, derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    names=st.lists(st.sampled_from(CASES), min_size=2, max_size=4, unique=True),
    size=st.integers(min_value=0, max_value=6),
)
def test_combined_hostile_trees(names: list[str], size: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="reprolint-hostile-"))
    try:
        check_tree(root, names, size)
    finally:
        _remove_tree(root)


def test_the_generators_make_what_they_say() -> None:
    tmp_path = _scratch()
    project, outside = hostile_trees.make_project(tmp_path)
    for name in CASES:
        hostile_trees.GENERATORS[name](project, outside, 1)
    assert (project / ".reprolint_cache").is_symlink()  # linked_cache came first
    assert (project / "loop.py").is_symlink()
    assert any(b"\xff" in os.fsencode(p) for p in os.listdir(os.fsencode(project)))
    if "fifo" in hostile_trees.GENERATORS:
        assert not (project / "pipe.py").is_file() and (project / "pipe.py").exists()
    assert (project / ".reprolint").is_symlink() or (project / ".reprolint" / "runs").is_symlink()
    _remove_tree(tmp_path)
