"""`reprolint check` does not crash on any file of the installed torch package or of
Python's standard library (flake8-bugbear's "does not crash on all of site-packages").

Each tree is checked in one run, on every core, without the cache; every file is
checked (the default excludes are lifted). A crash would be exit status 2 or a
traceback; a bug caught per file would be an RPL900 "internal error" finding, which is
a failure here too. Parse errors (the standard library's deliberately bad test files)
and the size limits are findings, not crashes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

TREES = {"stdlib": Path(sysconfig.get_paths()["stdlib"])}
try:
    import importlib.util

    _torch = importlib.util.find_spec("torch")
    if _torch is not None and _torch.origin:
        TREES["torch"] = Path(_torch.origin).parent
except (ImportError, ValueError):
    pass


@pytest.mark.parametrize("name", ["torch", "stdlib"])
def test_check_does_not_crash_on_a_whole_tree(name: str, tmp_path: Path) -> None:
    tree = TREES.get(name)
    if tree is None:
        pytest.skip(f"{name} is not installed")
    # Every file: no default excludes (only other interpreters' packages and caches).
    (tmp_path / "reprolint.toml").write_text('exclude = ["site-packages", "__pycache__"]\n')
    result = subprocess.run(
        [sys.executable, "-m", "reprolint", "check", str(tree), "--no-cache",
         "--config", str(tmp_path / "reprolint.toml"), "--output-format", "json"],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "CI": "1"},
    )
    assert result.returncode in (0, 1), result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    findings = json.loads(result.stdout)
    internal = [f for f in findings if f["code"] == "RPL900" and "internal error" in f["message"]]
    assert internal == [], internal[:5]
    files = sum(1 for _ in tree.rglob("*.py"))
    assert files > 100
