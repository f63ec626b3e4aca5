"""Hostile input on the check side (issue 15): files that are not files, folders that
cannot be read, a parser that crashes, bad configuration, names that would spoof output.

Each test states what a user sees: the exit status, the message, and that every other
file is still reported. Commands that could hang run in a child with a time-out, so a
regression fails instead of blocking the suite.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
import pytest

from reprolint import api
from reprolint.api import MAX_FILE_BYTES
from reprolint.discovery import NotRegularFile, read_regular
from reprolint.parallel import IN_PROCESS_BELOW, Crash, run_ordered
from reprolint.precheck import MAX_NESTING

UNSEEDED = "import random\nx = random.random()\n"


def reprolint(*args: str, cwd: Path, stdin: bytes = b"", timeout: float = 120,
              wrap: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "1"}
    env.pop("REPROLINT_DEBUG", None)
    return subprocess.run(
        [*wrap, sys.executable, "-m", "reprolint", *args], cwd=cwd, input=stdin,
        capture_output=True, timeout=timeout, env=env,
    )


def _as_a_user() -> tuple[str, ...]:
    """A prefix that runs a command without the power to ignore file permissions."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions are not enforced")
    return ("setpriv", "--bounding-set", "-dac_override,-dac_read_search")


# -- 7: only regular files are read ----------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_named_py_in_a_tree_is_skipped_not_read(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    os.mkfifo(tmp_path / "pipe.py")
    os.mkfifo(tmp_path / "pipe.ipynb")
    done = reprolint("check", "--no-cache", ".", cwd=tmp_path, timeout=60)
    assert done.returncode == 1, done
    assert b"train.py:2:5: RPL101" in done.stdout
    assert b"pipe.py: not a regular file" in done.stderr
    assert b"pipe.ipynb: not a regular file" in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_run_served_from_the_cache_still_warns_about_a_fifo(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    os.mkfifo(tmp_path / "pipe.py")
    cold = reprolint("check", ".", cwd=tmp_path, timeout=60)
    warm = reprolint("check", ".", cwd=tmp_path, timeout=60)
    assert cold.stdout == warm.stdout, (cold, warm)
    for done in (cold, warm):
        assert done.returncode == 1, done
        assert done.stderr.count(b"pipe.py: not a regular file") == 1, done


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_named_on_the_command_line_is_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    done = reprolint("check", "--no-cache", "pipe.py", cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done
    assert b"pipe.py: not a regular file" in done.stderr
    assert b"No files were checked" in done.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_that_replaced_a_file_after_discovery_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    started = time.monotonic()
    with pytest.raises(NotRegularFile):
        read_regular(str(tmp_path / "pipe.py"))
    assert time.monotonic() - started < 5
    analysis = api.analyse_file(str(tmp_path / "pipe.py"))
    assert analysis.error is not None and "not a regular file" in analysis.error.reason


# -- minor: nothing checked is not "All checks passed!" ---------------------------------

def test_an_empty_folder_says_that_no_file_was_checked(cli, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = cli("check", "--no-cache", str(tmp_path / "empty"))
    assert done.status == 0, done
    assert "No files were checked" in done.out
    assert "All checks passed" not in done.out


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="POSIX")
def test_dev_null_is_not_a_file_to_check(tmp_path: Path) -> None:
    done = reprolint("check", "--no-cache", "/dev/null", cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done
    assert b"/dev/null: not a regular file" in done.stderr
    assert b"No files were checked" in done.stdout


# -- 10: permissions ---------------------------------------------------------------------

def _check_beside_a_locked_folder(tmp_path: Path, *paths: str) -> subprocess.CompletedProcess:
    """`reprolint check --no-cache PATHS`, run as an unprivileged user, in a project of
    `train.py` and `locked/hidden.py` whose folder has no permissions at all."""
    wrap = _as_a_user()
    (tmp_path / "train.py").write_text(UNSEEDED)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "hidden.py").write_text(UNSEEDED)
    locked.chmod(0)
    try:
        return reprolint("check", "--no-cache", *paths, cwd=tmp_path, wrap=wrap)
    finally:
        locked.chmod(stat.S_IRWXU)


def test_a_folder_without_search_permission_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    done = _check_beside_a_locked_folder(tmp_path, ".")
    assert done.returncode == 1, done
    assert b"Traceback" not in done.stderr
    assert b"locked: cannot list this folder (Permission denied); skipped" in done.stderr
    assert b"train.py:2:5: RPL101" in done.stdout


def test_check_in_a_read_only_working_directory(tmp_path: Path) -> None:
    wrap = _as_a_user()
    (tmp_path / "train.py").write_text(UNSEEDED)
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        done = reprolint("check", "train.py", cwd=tmp_path, wrap=wrap)  # with the cache
    finally:
        tmp_path.chmod(stat.S_IRWXU)
    assert done.returncode == 1, done
    assert b"Traceback" not in done.stderr
    assert b"train.py:2:5: RPL101" in done.stdout


# -- 8: a crashing parser ----------------------------------------------------------------

def _run_of_twenty(root: Path, bad: str) -> None:
    for i in range(19):
        (root / f"m{i:02}.py").write_text(f"import random\nvalue_{i} = random.random()\n")
    (root / "deep.py").write_text(bad)


def test_deep_nesting_is_refused_before_libcst_and_the_run_goes_on(tmp_path: Path) -> None:
    # libcst's native parser dies with SIGSEGV on this 4 KB file.
    _run_of_twenty(tmp_path, "x = " + "(" * 2000 + "1" + ")" * 2000 + "\n")
    done = reprolint("check", "--no-cache", "--jobs", "2", ".", cwd=tmp_path)
    assert done.returncode == 1, done
    assert b"Traceback" not in done.stderr
    out = done.stdout.decode()
    assert f"deep.py:1:{5 + MAX_NESTING}: RPL900" in out
    assert f"more than {MAX_NESTING} nested brackets" in out
    assert sum(f"m{i:02}.py:2:" in out for i in range(19)) == 19


def test_deep_nesting_on_stdin_and_in_one_file_runs(tmp_path: Path) -> None:
    source = "y = " + "[" * 3000 + "]" * 3000 + "\n"
    done = reprolint("check", "--stdin-filename", "deep.py", cwd=tmp_path, stdin=source.encode())
    assert done.returncode == 1, done
    assert b"deep.py:1:205: RPL900" in done.stdout
    # Just under the limit is an ordinary file.
    fine = "y = " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n"
    assert [d.code for d in api.check_source(fine, "fine.py")] == []


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    text = "x = '" + "(" * 500 + "'\n# " + "[" * 500 + "\ny = '''" + "{" * 500 + "'''\n"
    assert [d.code for d in api.check_source(text, "s.py")] == []


def _segfault_on_crash(job: tuple) -> api.FileAnalysis:
    path = job[0]
    if path.endswith("crash.py"):
        faulthandler.disable()  # pytest's, inherited by the worker: no dump in the output
        os.kill(os.getpid(), signal.SIGSEGV)
    if path.endswith("slow.py"):
        time.sleep(60)
    return api.analyse_file(path)


def test_a_worker_that_dies_or_hangs_costs_one_file_only(tmp_path: Path) -> None:
    for i in range(IN_PROCESS_BELOW + 4):
        (tmp_path / f"m{i:02}.py").write_text("x = 1\n")
    (tmp_path / "crash.py").write_text("x = 1\n")
    (tmp_path / "slow.py").write_text("x = 1\n")
    jobs = [(str(p), None, False) for p in sorted(tmp_path.iterdir())]
    crashes: dict[str, str] = {}

    def on_crash(job: tuple, why: Crash) -> api.FileAnalysis:
        crashes[Path(job[0]).name] = str(why)
        return api.FileAnalysis(job[0])

    started = time.monotonic()
    results = run_ordered(_segfault_on_crash, jobs, 2, on_crash=on_crash, timeout=3)
    assert time.monotonic() - started < 40
    assert [r.path for r in results] == [j[0] for j in jobs]
    assert set(crashes) == {"crash.py", "slow.py"}
    assert "SIGSEGV" in crashes["crash.py"]
    assert "more than 3 s" in crashes["slow.py"]
    assert all(r.facts is not None for r in results if Path(r.path).name not in crashes)


def test_a_parser_crash_in_a_worker_is_rpl900_for_that_file(tmp_path: Path, monkeypatch, cli) -> None:
    real = api.analyse_source

    def crashing(source: str, path: str) -> api.FileAnalysis:
        if path.endswith("crash.py"):
            faulthandler.disable()  # pytest's, inherited by the worker: no dump in the output
            os.kill(os.getpid(), signal.SIGSEGV)  # what libcst does on some inputs
        return real(source, path)

    monkeypatch.setattr(api, "analyse_source", crashing)
    _run_of_twenty(tmp_path, "z = 1\n")
    (tmp_path / "crash.py").write_text("import random\nrandom.random()\n")
    done = cli("check", "--no-cache", "--jobs", "2", str(tmp_path))
    assert done.status == 1, done
    assert "crash.py:1:1: RPL900" in done.out
    assert "not analysed: the parser's process died (SIGSEGV" in done.out
    assert sum(f"m{i:02}.py:2:" in done.out for i in range(19)) == 19


# -- 9, 11: --stdin-filename gets the policy of a file on disk -----------------------------

def test_stdin_has_the_size_limit_of_a_file(tmp_path: Path) -> None:
    big = b"x = 1\n" * (MAX_FILE_BYTES // 6 + 10)
    done = reprolint("check", "--stdin-filename", "big.py", cwd=tmp_path, stdin=big)
    assert done.returncode == 1, done
    assert b"big.py:1:1: RPL900" in done.stdout
    assert b"-byte limit for one file" in done.stdout


def test_stdin_has_the_data_file_policy_of_a_file(tmp_path: Path) -> None:
    rows = "".join(f"    ({i}, 'float16', {i * 2}): ({i}, {i + 1}, 4, 8),\n" for i in range(9000))
    data = f"import torch\n\nTABLE = {{\n{rows}}}\n\nx = torch.randn(3)\n".encode()
    done = reprolint("check", "--stdin-filename", "meta.py", cwd=tmp_path, stdin=data)
    # skipped as on disk: named in the summary, not a finding (the draw is not analysed)
    assert done.returncode == 0, done
    assert b"RPL" not in done.stdout
    assert b"Skipped 1 file, not analysed: meta.py (a data file:" in done.stdout
    assert b"literal data tables" in done.stdout


def test_a_lone_surrogate_in_a_notebook_on_stdin_is_a_finding(tmp_path: Path) -> None:
    notebook = (
        '{"cells": [{"cell_type": "code", "source": ["x = \\"\\ud800\\"\\n"], "metadata": {},'
        ' "outputs": [], "execution_count": null}], "metadata": {"kernelspec": {"language":'
        ' "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}'
    )
    done = reprolint("check", "--stdin-filename", "x.ipynb", cwd=tmp_path, stdin=notebook.encode())
    assert done.returncode == 1, done
    assert b"Traceback" not in done.stderr
    assert b"x.ipynb" in done.stdout and b"RPL900" in done.stdout
    assert b"surrogate" in done.stdout


# -- 13: configuration ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("pyproject", "message"),
    [
        ("[tool]\nreprolint = 5\n", "`tool.reprolint` must be a table"),
        ("tool = 5\n", "`tool` must be a table"),
        ("[tool.reprolint]\nseed = " + "9" * 5000 + "\n", "a number too long to read"),
        ("[tool.reprolint]\nseed = 4294967296\n", "`seed` must be an integer from 0 to 4294967295"),
        ("[tool.reprolint]\nseed = -1\n", "`seed` must be an integer from 0 to 4294967295"),
        ("[tool.reprolint\nseed = 1\n", "invalid TOML"),
        ('[project]\nname = "x"\n[project\n', "invalid TOML"),
    ],
    ids=["reprolint-not-a-table", "tool-not-a-table", "5000-digits", "seed-2**32", "seed-negative",
         "malformed", "malformed-without-reprolint"],
)
def test_bad_configuration_is_a_clear_error_with_status_2(cli, tmp_path: Path, pyproject: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(pyproject)
    (tmp_path / "train.py").write_text(UNSEEDED)
    done = cli("check", "--no-cache", "train.py", cwd=tmp_path)
    assert done.status == 2, done
    assert message in done.err
    assert str(tmp_path / "pyproject.toml") in done.err


def test_the_largest_accepted_seed_is_accepted(cli, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.reprolint]\nseed = 4294967295\n")
    (tmp_path / "train.py").write_text(UNSEEDED)
    assert cli("check", "--no-cache", "train.py", cwd=tmp_path).status == 1


# -- 16: internal errors exit 2 ------------------------------------------------------------

def test_an_internal_error_exits_2_with_one_clear_line(cli, tmp_path: Path, monkeypatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "check_paths", broken)
    (tmp_path / "train.py").write_text(UNSEEDED)
    done = cli("check", "--no-cache", str(tmp_path))
    assert done.status == 2, done
    assert "reprolint: internal error: RuntimeError: boom" in done.err
    assert "Traceback" not in done.err


# -- minor: names that would spoof the terminal ---------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")
def test_control_characters_in_file_names_are_escaped(cli, tmp_path: Path) -> None:
    (tmp_path / "a\nb.py").write_text(UNSEEDED)
    (tmp_path / "c\x1b[31m.py").write_text(UNSEEDED)
    for fmt in ("text", "concise"):
        done = cli("check", "--no-cache", "--output-format", fmt, str(tmp_path))
        assert done.status == 1, done
        assert "a\\nb.py:2:5: RPL101" in done.out
        assert "c\\x1b[31m.py:2:5: RPL101" in done.out
        assert "\x1b" not in done.out
        assert all(line.startswith((str(tmp_path), "Found")) for line in done.out.splitlines() if line)


def test_escaped_names_in_the_code_frame_and_messages(cli, tmp_path: Path) -> None:
    (tmp_path / "bad\r.py").write_text("def f(:\n")
    done = cli("check", "--no-cache", "--show-source", str(tmp_path))
    assert done.status == 1, done
    assert "bad\\r.py:1:" in done.out
    assert "\r" not in done.out


def test_nothing_is_read_from_a_device_named_py(tmp_path: Path) -> None:
    link = tmp_path / "zero.py"
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link.symlink_to("/dev/zero")
    done = reprolint("check", "--no-cache", "zero.py", cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done
    assert b"zero.py: not a regular file" in done.stderr



# -- 10: a path that cannot be looked at, named on the command line ----------------------------

def test_a_file_named_inside_a_folder_without_search_permission_is_reported(tmp_path: Path) -> None:
    # Root ignores permission bits; setpriv drops that power (skips only without it).
    done = _check_beside_a_locked_folder(tmp_path, "locked/hidden.py", "train.py")
    assert done.returncode == 1, done
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr
    assert b"locked/hidden.py" in done.stdout + done.stderr
    assert b"Permission denied" in done.stdout + done.stderr
    assert b"train.py:2:5: RPL101" in done.stdout


def test_a_path_that_cannot_be_looked_at_even_by_root_is_reported(tmp_path: Path) -> None:
    # A name longer than the system allows fails stat() for every user, root included.
    (tmp_path / "train.py").write_text(UNSEEDED)
    long_name = "d" * 300 + "/a.py"
    done = reprolint("check", "--no-cache", long_name, "train.py", cwd=tmp_path)
    assert done.returncode == 1, done
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr
    assert f"{long_name}:1:1: RPL900".encode() in done.stdout
    assert b"File name too long" in done.stdout
    assert b"train.py:2:5: RPL101" in done.stdout


# -- 8: chains that cost libcst quadratic time, in a run parsed in-process ----------------------

def test_long_chains_are_refused_before_libcst_and_the_run_goes_on(cli, tmp_path: Path) -> None:
    from reprolint.precheck import MAX_CHAIN, MAX_TRAILERS

    # libcst needs half a minute or more for each of these (quadratic in the length).
    (tmp_path / "sum.py").write_text("x = " + " + ".join(["a"] * 8000) + "\n")
    (tmp_path / "attrs.py").write_text("y = a" + ".b" * 5000 + "\n")
    (tmp_path / "train.py").write_text(UNSEEDED)
    started = time.monotonic()
    done = cli("check", "--no-cache", ".", cwd=tmp_path)  # 3 files: parsed in-process
    assert time.monotonic() - started < 20
    assert done.status == 1, done
    assert "Traceback" not in done.err
    assert f"sum.py:1:{5 + 4 * MAX_CHAIN + 2}: RPL900" in done.out
    assert f"more than {MAX_CHAIN} operators of one kind in a row" in done.out
    assert f"attrs.py:1:{6 + 2 * MAX_TRAILERS}: RPL900" in done.out
    assert f"more than {MAX_TRAILERS} attribute dots, calls or subscripts in a row" in done.out
    assert "train.py:2:5: RPL101" in done.out


def test_chains_just_under_the_limits_and_in_strings_are_parsed() -> None:
    from reprolint.precheck import MAX_CHAIN, MAX_TRAILERS, chain_problem

    assert chain_problem("x = " + " + ".join(["a"] * (MAX_CHAIN + 1)) + "\n") is None
    assert chain_problem("y = a" + ".b" * MAX_TRAILERS + "\n") is None
    # Commas, assignments and line ends end a chain; text in strings and comments is no chain.
    assert chain_problem("z = [" + ", ".join(["-1.5"] * 5000) + "]\n") is None
    assert chain_problem("\n".join(["w = a + b"] * 5000) + "\n") is None
    assert chain_problem("s = '" + "+" * 5000 + "'  # " + "." * 5000 + "\n") is None
    # A line break inside brackets does not end the chain.
    inside = "v = (" + " +\n".join(["a"] * (MAX_CHAIN + 2)) + ")\n"
    assert chain_problem(inside) is not None
    # Nor does a call or a subscript in between: `f(x).g[0]...` is one chain of trailers.
    assert chain_problem("u = f" + "(x).g[0]" * MAX_TRAILERS + "\n") is not None


def test_chains_of_every_operator_kind_are_refused() -> None:
    from reprolint.precheck import MAX_CHAIN, MAX_NESTING, parse_problem

    # Shifts are spelt with characters no other link uses (libcst takes 1.8 s on 3,100).
    for op in ("<<", ">>", "&", "|", "^", "+", "*", "**", "//", "@"):
        reason = parse_problem("x = " + f" {op} ".join(["a"] * (MAX_CHAIN + 2)) + "\n")
        assert reason is not None and f"more than {MAX_CHAIN} operators" in reason[0], op
        assert parse_problem("x = " + f" {op} ".join(["a"] * MAX_CHAIN) + "\n") is None, op
    # Too deep a nesting is the answer even after a long chain earlier in the file.
    chain = "x = " + " + ".join(["a"] * (MAX_CHAIN + 2)) + "\n"
    deep = "y = " + "(" * (MAX_NESTING + 1) + ")" * (MAX_NESTING + 1) + "\n"
    reason = parse_problem(chain + deep)
    assert reason is not None and "nested" in reason[0] and reason[1] == 2


def test_a_chain_of_two_thousand_modules_importing_the_next_is_checked_and_fixed(cli, tmp_path: Path) -> None:
    # Each import level nests the program's walk (found by bench/lsp_latency.py's
    # 2,000-file workspace: an internal RecursionError, exit 2, no finding).
    n = 2000
    for i in range(n - 1):
        (tmp_path / f"m{i}.py").write_text(f"import m{i + 1}\n\ndef f():\n    return 1\n\nm{i + 1}.f()\n")
    (tmp_path / f"m{n - 1}.py").write_text("import random\n\ndef f():\n    return random.random()\n")
    (tmp_path / "train.py").write_text("import m0\n\nif __name__ == '__main__':\n    m0.f()\n")
    checked = cli("check", "--no-cache", str(tmp_path))
    assert checked.status == 1, checked.err
    assert f"m{n - 1}.py:4:12: RPL101" in checked.out and "internal error" not in checked.err
    fixed = cli("fix", "--no-cache", "--write", str(tmp_path))
    assert fixed.status == 0, fixed.err
    assert "reprolint.runtime.install(seed=0)" in (tmp_path / "train.py").read_text()


def test_a_warm_run_names_the_skipped_data_file_again(tmp_path: Path) -> None:
    rows = "".join(f"    ({i}, 'float16', {i * 2}): ({i}, {i + 1}, 4, 8),\n" for i in range(9000))
    (tmp_path / "meta.py").write_text(f"TABLE = {{\n{rows}}}\n")
    (tmp_path / "train.py").write_text("import torch\nx = torch.randn(3)\n")
    runs = [reprolint("check", ".", cwd=tmp_path) for _ in range(3)]  # cold, then from the cache
    for done in runs:
        assert done.returncode == 1, done
        assert b"train.py:2:5: RPL101" in done.stdout
        assert b"Skipped 1 file, not analysed: meta.py (a data file:" in done.stdout
    assert (tmp_path / ".reprolint_cache").is_dir()
