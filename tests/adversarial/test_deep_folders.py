"""A folder chain 1,000 deep (issue 30, item 9): a committable path of 2,000 characters
made `check` and `fix` die of RecursionError (exit 2). Folders are walked iteratively.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

try:  # as a package (tests/adversarial/__init__.py) or as a rootdir-relative module
    from . import hostile_trees
    from .test_hostile_trees import _remove_tree
except ImportError:
    import hostile_trees  # type: ignore[no-redef]
    from test_hostile_trees import _remove_tree  # type: ignore[no-redef]


def test_check_and_fix_walk_a_folder_chain_1000_deep() -> None:
    # outside pytest's basetemp: a chain left by a killed run must not reach pytest's
    # recursive clean-up (see test_hostile_trees._scratch)
    tmp_path = Path(tempfile.mkdtemp(prefix="reprolint-deep-"))
    project = tmp_path / "project"
    project.mkdir()
    try:
        hostile_trees.deep_folders(project, tmp_path, 0)
        env = {**os.environ, "CI": "1"}
        for args, status in ((["check", "--no-cache", "."], 1), (["fix", "--unsafe-fixes", "."], 1)):
            done = subprocess.run([sys.executable, "-m", "reprolint", *args], cwd=project,
                                  capture_output=True, text=True, env=env, timeout=300)
            assert done.returncode == status, done.stderr[-2000:]
            assert "RecursionError" not in done.stderr, done.stderr[-2000:]
            assert "/d/deep.py" in done.stdout
    finally:
        _remove_tree(tmp_path)
