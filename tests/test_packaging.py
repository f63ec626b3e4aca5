"""The wheel ships the knowledge base, `check` runs without torch or NumPy, and on the
oldest Python the package claims to support."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Optional

import pytest

from reprolint import _toml

# Builds a wheel and installs it into a fresh virtualenv.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent


PYPROJECT = _toml.loads((REPO / "pyproject.toml").read_text())


def test_every_package_is_listed_in_pyproject() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(REPO).parts)
        for p in (REPO / "reprolint").rglob("__init__.py")
    }
    assert on_disk | {"reprolint._rules"} == listed


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out), str(REPO)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    [built] = out.glob("reprolint-*.whl")
    return built


def test_wheel_contains_every_catalog(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for catalog in (REPO / "rules").glob("*.toml"):
        assert f"reprolint/_rules/{catalog.name}" in names


def test_installed_wheel_checks_code_without_torch(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
    )
    (tmp_path / "train.py").write_text("import torch\nx = torch.randn(3)\n")
    # torch and numpy are made unimportable: the linter must not need them.
    script = (
        "import sys\n"
        "sys.modules['torch'] = None\nsys.modules['numpy'] = None\n"
        "from reprolint.cli import main\n"
        "status = main(['check', 'train.py'])\n"
        "assert 'torch' not in [m.split('.')[0] for m in sys.modules if sys.modules[m] is not None]\n"
        "sys.exit(status)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
    )
    assert proc.returncode == 1, proc.stderr
    assert "train.py:2:5: RPL101" in proc.stdout
    assert str(target) in subprocess.run(
        [sys.executable, "-c", "import reprolint; print(reprolint.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    ).stdout


def _interpreter(version: str) -> Optional[str]:
    """A working ``python<version>``: on PATH, or one that pyenv installed."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = [shutil.which(f"python{version}")]
    candidates += sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}")))
    for candidate in candidates:
        if candidate and subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None


def test_the_oldest_supported_python_finds_the_same_problems(wheel: Path, tmp_path: Path) -> None:
    match = re.fullmatch(r">=(3\.\d+)", PYPROJECT["project"]["requires-python"])
    assert match is not None
    oldest = match.group(1)
    python = _interpreter(oldest)
    if python is None:
        pytest.skip(f"no Python {oldest} on this machine")
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    proc = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # The findings depend on the torch version (installed here, not there): pin it.
    config = tmp_path / "reprolint.toml"
    config.write_text('[tool.reprolint]\ntorch-version = "2.13"\n')
    command = ["-m", "reprolint", "check", "--config", str(config), "--no-cache", "--output-format", "json", "corpus"]
    here = subprocess.run([sys.executable, *command], cwd=REPO, capture_output=True, text=True)
    there = subprocess.run([str(venv / "bin" / "python"), *command], cwd=REPO, capture_output=True, text=True)
    assert here.returncode == there.returncode == 1, there.stderr[-3000:]
    assert there.stdout == here.stdout
    assert '"code": "RPL101"' in there.stdout
