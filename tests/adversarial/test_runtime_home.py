"""A program run by another Python gets verify's runtime, not verify's source tree
(issue 30, item 12): the fallback appended the folder above the reprolint package (an
editable checkout's root, or verify's whole site-packages) to the program's sys.path,
so the checkout's modules (its `conftest.py`, `bench/`) or verify's libraries shadowed
the program's own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import reprolint

PROGRAM = (
    "import json, sys\n"
    "import reprolint.runtime\n"
    "json.dump(sys.path, open('path.json', 'w'))\n"
    "print('trained')\n"
)


def _other_python(cwd: Path) -> str:
    for candidate in ("/usr/bin/python3", shutil.which("python3") or ""):
        if not candidate or not os.path.exists(candidate) or os.path.realpath(candidate) == os.path.realpath(sys.executable):
            continue
        probe = subprocess.run([candidate, "-c", "import reprolint"], cwd=cwd, capture_output=True,
                               env={"PATH": os.environ.get("PATH", "")}, timeout=60)
        if probe.returncode != 0:
            return candidate
    pytest.skip("no other Python without reprolint on this machine")


def test_another_python_gets_the_runtime_and_not_the_source_tree(tmp_path: Path) -> None:
    other = _other_python(tmp_path)
    (tmp_path / "train.py").write_text(PROGRAM)
    env = {**os.environ, "CI": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-m", "reprolint", "verify", "--", other, "train.py"],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert "cannot trace this process" not in done.stdout + done.stderr, done
    assert done.returncode in (0, 1), done
    above = str(Path(reprolint.__file__).resolve().parent.parent)
    seen = [os.path.realpath(p) for p in json.loads((tmp_path / "path.json").read_text())]
    assert os.path.realpath(above) not in seen, seen
