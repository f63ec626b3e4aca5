"""No workflow command forged through reprolint's output (issue 30, items 3 and 15).

Under ``--output-format github`` the Actions runner reads every line of both streams; a
file name or a configuration value holding a line break must not start a command
(``::stop-commands::`` would hide every later annotation, a fake ``::error`` would be
believed). What a user sees: each line is one of reprolint's escaped annotations, on
stdout, or plain text that cannot start a command.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reprolint.reporters.workflow import WorkflowSafeStream, is_command_line, plain_line

INJECTED = "\n::stop-commands::pwned\n::error file=train.py,line=1::forged\r##[error]old form"
UNSEEDED = "import random\nx = random.random()\n"
ANNOTATION = re.compile(r"^::(warning|error|notice) file=[^:\r\n]*,title=RPL\d{3} [a-z-]+::[^\r\n]*$")


def _github(cwd: Path, *args: str, cache: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "CI": "1"}
    env.pop("REPROLINT_DEBUG", None)
    options = [] if cache else ["--no-cache"]
    return subprocess.run(
        [sys.executable, "-m", "reprolint", "check", *options, "--output-format", "github", *args],
        cwd=cwd, capture_output=True, env=env, timeout=120,
    )


def _runner_lines(data: bytes) -> list[str]:
    """The lines as the Actions runner reads them: \\r, \\n and \\r\\n end a line."""
    return re.split(r"\r\n|\r|\n", data.decode("utf-8", "surrogateescape"))


def assert_no_forged_command(done: subprocess.CompletedProcess) -> None:
    for line in _runner_lines(done.stderr):
        assert not is_command_line(line), (line, done.stderr)
    for line in _runner_lines(done.stdout):
        assert not is_command_line(line) or ANNOTATION.match(line), (line, done.stdout)


def test_an_importers_file_name_cannot_stop_the_annotations(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "mypkg.py").write_text("VALUE = 1\n")
    sub = tmp_path / "scripts"
    sub.mkdir()
    (sub / ("x" + INJECTED.replace("/", "_") + ".py")).write_text("import mypkg\n" + UNSEEDED)
    done = _github(sub, ".")
    assert done.returncode == 1, done
    assert b"reprolint: note: `mypkg` (imported by " in done.stderr, done
    assert_no_forged_command(done)
    assert re.search(rb"^::warning file=x%0A%3A%3Astop-commands", done.stdout, re.M), done.stdout


def test_a_cache_dir_with_a_newline_cannot_forge_an_error(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    value = "../x" + INJECTED
    (tmp_path / "reprolint.toml").write_text(f"cache-dir = {value!r}\n".replace("'", '"'))
    done = _github(tmp_path.resolve(), "train.py", cache=True)
    assert done.returncode == 2, done
    assert b"cache-dir" in done.stderr, done
    assert_no_forged_command(done)


def test_a_select_value_with_a_newline_cannot_forge_an_error(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    done = _github(tmp_path, "--select", "RPL1" + INJECTED, "train.py")
    assert done.returncode == 2, done
    assert b"reprolint: error:" in done.stderr, done
    assert_no_forged_command(done)


def test_a_select_value_in_the_configuration_cannot_forge_an_error(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    (tmp_path / "reprolint.toml").write_text('select = ["RPL1\\n::error file=a.py,line=1::forged"]\n')
    done = _github(tmp_path, "train.py")
    assert done.returncode == 2, done
    assert_no_forged_command(done)


def test_annotations_themselves_are_kept(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNSEEDED)
    done = _github(tmp_path, "train.py")
    assert done.returncode == 1, done
    assert done.stdout.decode().startswith("::warning file=train.py,line=2,"), done


@pytest.mark.parametrize("text", ["::error::x", "  ::warning::x", "##[error]x", "\t::add-mask::x"])
def test_plain_lines_never_start_a_command(text: str) -> None:
    assert is_command_line(text)
    assert not is_command_line(plain_line(text))
    assert plain_line("a\rb") == "a\\x0db"


def test_a_command_split_over_two_writes_is_still_caught() -> None:
    import io

    inner = io.StringIO()
    stream = WorkflowSafeStream(inner)
    stream.write("note: a.py\n:")
    stream.flush()
    stream.write(":stop-commands::x\n")
    stream.write_command("::error file=a.py\n::forged")  # not one well-formed line
    stream.close_line()
    assert all(not is_command_line(line) for line in inner.getvalue().splitlines()), inner.getvalue()
