"""The pre-commit hooks, run by the real `pre-commit` tool in a throwaway repository.

The end-to-end test installs reprolint into pre-commit's own environment from a commit of
this working tree (libcst and rich come from the package index), so it needs the index
and takes a minute. `reprolint-fix` is declared but only checked for its declaration:
`reprolint fix` is not implemented yet.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")  # comes with pre-commit

REPO = Path(__file__).resolve().parent.parent
HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))

UNSEEDED = "import torch\n\nx = torch.randn(3)\n"
SEEDED = "import torch\n\ntorch.manual_seed(0)\nx = torch.randn(3)\n"


def test_hooks_are_declared_for_python_and_notebooks() -> None:
    by_id = {hook["id"]: hook for hook in HOOKS}
    assert set(by_id) == {"reprolint", "reprolint-fix"}
    assert by_id["reprolint"]["entry"] == "reprolint check"
    assert by_id["reprolint-fix"]["entry"] == "reprolint fix --write"
    for hook in HOOKS:
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "jupyter"]
        # Program-level analysis needs the whole project, not just the staged files.
        assert hook["pass_filenames"] is False


def _git(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True)


def _snapshot_of_this_tree(target: Path, env: dict) -> str:
    """Commit the working tree (tracked and untracked, not ignored) into ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = REPO / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    _git("init", "-q", cwd=target, env=env)
    _git("add", "-A", cwd=target, env=env)
    _git("commit", "-q", "-m", "snapshot", cwd=target, env=env)
    return _git("rev-parse", "HEAD", cwd=target, env=env).stdout.strip()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_check_hook_fails_on_findings_and_passes_when_clean(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit")
    if not (REPO / ".git").exists():
        pytest.skip("needs a git checkout of reprolint")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
        GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"),
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
    )
    (tmp_path / "gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    hook_repo, project = tmp_path / "reprolint", tmp_path / "project"
    hook_repo.mkdir()
    project.mkdir()
    sha = _snapshot_of_this_tree(hook_repo, env)

    _git("init", "-q", cwd=project, env=env)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo.as_posix()}\n    rev: {sha}\n    hooks:\n"
        "      - id: reprolint\n"
    )
    (project / "train.py").write_text(UNSEEDED)
    _git("add", "-A", cwd=project, env=env)

    def pre_commit(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=project, env=env,
                              capture_output=True, text=True, timeout=600)

    installed = pre_commit("install-hooks")
    assert installed.returncode == 0, installed.stdout + installed.stderr

    # A finding fails the hook and shows the finding.
    run = pre_commit("run", "--all-files")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "reprolint" in run.stdout and "Failed" in run.stdout
    assert "train.py:3:5: RPL101 `torch.randn` draws from torch's global RNG" in run.stdout

    # As a git hook: the commit is refused...
    assert pre_commit("install").returncode == 0
    refused = subprocess.run(["git", "commit", "-m", "add training"], cwd=project, env=env,
                             capture_output=True, text=True, timeout=600)
    assert refused.returncode != 0
    assert "RPL101" in refused.stdout + refused.stderr

    # ...until the program is seeded.
    (project / "train.py").write_text(SEEDED)
    _git("add", "-A", cwd=project, env=env)
    accepted = subprocess.run(["git", "commit", "-m", "seeded"], cwd=project, env=env,
                              capture_output=True, text=True, timeout=600)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "Passed" in accepted.stdout + accepted.stderr

    # A commit without Python files or notebooks does not run it.
    (project / "NOTES.md").write_text("notes\n")
    _git("add", "NOTES.md", cwd=project, env=env)
    skipped = subprocess.run(["git", "commit", "-m", "notes"], cwd=project, env=env,
                             capture_output=True, text=True, timeout=600)
    assert skipped.returncode == 0
    assert "Skipped" in skipped.stdout + skipped.stderr
