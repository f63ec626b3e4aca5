"""The composite GitHub Action: its shell steps, run locally as the runner would run them.

GitHub runs a `shell: bash` step as `bash --noprofile --norc -eo pipefail FILE`, after
replacing each `${{ ... }}` expression, with `GITHUB_OUTPUT`, `RUNNER_TEMP` and the
`env:` of the step set. These tests do the same. The end-to-end tests install reprolint
from a copy of this working tree into a fresh virtualenv (dependencies from the package
index), once per module.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

yaml = pytest.importorskip("yaml")  # comes with pre-commit

REPO = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
STEPS = ACTION["runs"]["steps"]

UNSEEDED = "import torch\n\nx = torch.randn(3)\n"
SEEDED = "import torch\n\ntorch.manual_seed(0)\nx = torch.randn(3)\n"
ANNOTATION = (
    "::warning file=src/train.py,line=3,endLine=3,col=5,endColumn=19,"
    "title=RPL101 unseeded-global-rng::`torch.randn` draws from torch's global RNG, which is "
    "never seeded on this program's path (entry point: src/train.py)"
)
_EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


def _render(value: str, context: dict[str, str]) -> str:
    def sub(match: re.Match) -> str:
        return context[match.group(1)]  # an unknown expression fails the test

    return _EXPRESSION.sub(sub, value)


class Runner:
    """Runs the action's steps in order, like a GitHub runner, in ``workspace``."""

    def __init__(self, action_path: Path, temp: Path, inputs: dict[str, str]) -> None:
        self.context = {"github.action_path": str(action_path)}
        for name, spec in ACTION["inputs"].items():
            self.context[f"inputs.{name}"] = inputs.get(name, spec.get("default", ""))
        self.temp = temp
        self.action_path = action_path

    def run_step(self, step: dict, workspace: Path, path_prefix: Optional[Path] = None):
        assert step["shell"] == "bash"
        script = self.temp / f"step-{step.get('id', 'x')}.sh"
        script.write_text(_render(step["run"], self.context))
        output = self.temp / "github_output"
        output.write_text("")
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "VIRTUAL_ENV")}
        env.update(
            GITHUB_OUTPUT=str(output), RUNNER_TEMP=str(self.temp), CI="true",
            GITHUB_ACTIONS="true", GITHUB_ACTION_PATH=str(self.action_path),
            GITHUB_WORKSPACE=str(workspace),
        )
        if path_prefix is not None:
            env["PATH"] = f"{path_prefix}{os.pathsep}{env['PATH']}"
        env.update({k: _render(str(v), self.context) for k, v in step.get("env", {}).items()})
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace, env=env, capture_output=True, text=True, timeout=600,
        )
        for line in output.read_text().splitlines():
            key, _, value = line.partition("=")
            self.context[f"steps.{step['id']}.outputs.{key}"] = value
        return done


def test_action_is_composite_with_paths_args_version() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {name: spec.get("default") for name, spec in ACTION["inputs"].items()} == {
        "paths": ".", "args": "", "version": "",
    }
    assert "--output-format github" in STEPS[-1]["run"]
    for step in STEPS:
        # Inputs go through env:, never pasted into the script (script injection).
        assert "${{" not in step["run"]


_FAKE_PYTHON = """#!/usr/bin/env bash
# Stands in for python: `-m venv DIR` makes DIR/bin/python (this script); `-m pip ...` logs.
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; exit 0; fi
echo "$*" >> "$FAKE_PIP_LOG"
"""


@pytest.mark.parametrize(
    ("version", "expected"),
    [("", "{action_path}"), ("0.3.1", "reprolint==0.3.1"), ("v0.3.1", "reprolint==0.3.1")],
)
def test_install_step_picks_the_checkout_or_a_release(tmp_path: Path, version, expected) -> None:
    fake_bin = tmp_path / "fakebin"
    fake_bin.mkdir()
    for name in ("python3", "python"):
        (fake_bin / name).write_text(_FAKE_PYTHON)
        (fake_bin / name).chmod(0o755)
    log = tmp_path / "pip.log"
    os.environ["FAKE_PIP_LOG"] = str(log)
    try:
        runner = Runner(tmp_path / "action", tmp_path, {"version": version})
        done = runner.run_step(STEPS[0], tmp_path, path_prefix=fake_bin)
    finally:
        del os.environ["FAKE_PIP_LOG"]
    assert done.returncode == 0, done.stderr
    [line] = log.read_text().splitlines()
    assert line.startswith("-m pip install ")
    assert line.endswith(" " + expected.format(action_path=tmp_path / "action"))
    assert runner.context["steps.install.outputs.bin"] == str(tmp_path / "reprolint-venv" / "bin")


def _copy_tree(target: Path) -> None:
    """The action as GitHub checks it out: the tracked and new files of this tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, listed):
        if (REPO / rel).is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, target / rel)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    """The install step, run for real once: reprolint from the action's own checkout."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout of reprolint")
    action_path = tmp_path_factory.mktemp("action")
    _copy_tree(action_path)
    temp = tmp_path_factory.mktemp("runner-temp")
    runner = Runner(action_path, temp, {})
    done = runner.run_step(STEPS[0], temp)
    assert done.returncode == 0, done.stdout + done.stderr
    return runner


def _run(runner: Runner, workspace: Path, **inputs: str) -> subprocess.CompletedProcess:
    for name, value in inputs.items():
        runner.context[f"inputs.{name}"] = value
    try:
        return runner.run_step(STEPS[1], workspace)
    finally:
        for name in inputs:
            runner.context[f"inputs.{name}"] = ACTION["inputs"][name].get("default", "")


def _workspace(root: Path, source: str) -> Path:
    (root / "src").mkdir()
    (root / "src" / "train.py").write_text(source)
    return root


@pytest.mark.slow  # installs reprolint into a fresh virtualenv (once per module)
def test_findings_become_annotations_and_fail_the_step(installed: Runner, tmp_path: Path) -> None:
    done = _run(installed, _workspace(tmp_path, UNSEEDED), paths="src")
    assert done.returncode == 1
    assert done.stdout == ANNOTATION + "\n"


@pytest.mark.slow  # installs reprolint into a fresh virtualenv (once per module)
def test_args_are_passed_to_check(installed: Runner, tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, UNSEEDED)
    done = _run(installed, workspace, paths="src", args="--exit-zero --select RPL1")
    assert (done.returncode, done.stdout) == (0, ANNOTATION + "\n")
    ignored = _run(installed, workspace, args="--ignore RPL101")
    assert (ignored.returncode, ignored.stdout) == (0, "")


@pytest.mark.slow  # installs reprolint into a fresh virtualenv (once per module)
def test_clean_workspace_passes_silently(installed: Runner, tmp_path: Path) -> None:
    done = _run(installed, _workspace(tmp_path, SEEDED))
    assert (done.returncode, done.stdout) == (0, "")


@pytest.mark.slow  # installs reprolint into a fresh virtualenv (once per module)
def test_inputs_are_data_not_shell_code(installed: Runner, tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, SEEDED)
    done = _run(installed, workspace, paths="src $(touch pwned) *")
    assert not (workspace / "pwned").exists()
    assert done.returncode == 2
    assert "no such file or directory: $(touch, pwned), *" in done.stderr


@pytest.mark.slow  # installs reprolint into a fresh virtualenv (once per module)
def test_installed_console_script_is_executable(installed: Runner) -> None:
    binary = Path(installed.context["steps.install.outputs.bin"]) / "reprolint"
    assert binary.stat().st_mode & stat.S_IXUSR
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
    assert version.stdout.startswith("reprolint ")
    assert sys.executable != str(binary)


@pytest.mark.slow  # installs reprolint into a fresh virtualenv (once per module)
def test_a_path_named_like_an_option_stays_a_path(installed: Runner, tmp_path: Path) -> None:
    # issue 30: the paths came after the options without `--`, so a folder named
    # `--exit-zero` turned the check green.
    (tmp_path / "--exit-zero").mkdir()
    (tmp_path / "--exit-zero" / "train.py").write_text(UNSEEDED)
    done = _run(installed, tmp_path, paths="--exit-zero")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "file=--exit-zero/train.py" in done.stdout
