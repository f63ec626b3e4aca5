"""`next(os.walk(d))` is the top folder's own triple in any order; RPL402 judges the two
lists in it (subfolders, files) by what the code does with them."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

CASES = [
    ("classes = sorted(next(os.walk(d))[1])\nprint(list(enumerate(classes)))\n", False),
    ("root, dirs, files = next(os.walk(d))\nprint(len(dirs), len(files), root)\n", False),
    ("root, dirs, files = os.walk(d).__next__()\ndirs.sort()\nprint(dirs[0])\n", False),
    ("top = next(iter(os.walk(d)))[0]\nprint(top)\n", False),
    ("classes = sorted(os.walk(d).next()[1])\nprint(classes[0])\n", False),
    ("classes = os.walk(d).next()[1]\nprint(classes[0])\n", True),
    ("_, dirs, _ = next(os.walk(d))\nprint(dirs[0])\n", True),
    ("files = next(os.walk(d))[2]\nprint(dict(enumerate(files)))\n", True),
    ("print(next(os.walk(d))[1][:3])\n", True),
    ("walk = os.walk(d)\nroot, dirs, files = next(walk)\nprint(len(dirs))\n", False),
    ("walk = os.walk(d)\n_, classes, _ = next(walk)\nprint(classes[0])\n", True),
]


@pytest.mark.parametrize(("code", "reported"), CASES)
def test_the_top_triple_s_lists_are_judged_by_their_use(tmp_path: Path, code: str, reported: bool) -> None:
    (tmp_path / "prep.py").write_text("import os\nimport sys\n\nd = sys.argv[1]\n" + code)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL402"]
    assert [(d.span.start_line, d.data["function"]) for d in found] == ([(5, "os.walk")] if reported else [])
