"""A list a loop fills with a listing's entries is judged by its later use, as a stored
listing is: filling it is no use of the order."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

LOOP = "paths = []\nfor name in os.listdir(d):\n    paths.append(name)\n"
CASES = [
    ("print(len(paths))\n", None),
    ("print('a.png' in paths, set(paths))\n", None),
    ("print(sorted(paths)[0])\n", None),
    ("print(paths[0])\n", "position"),
    ("np.save('x.npy', np.array(paths))\n", "passed"),
]


@pytest.mark.parametrize(("use", "reported"), CASES)
def test_a_filled_list_is_judged_by_its_use(tmp_path: Path, use: str, reported: str | None) -> None:
    (tmp_path / "prep.py").write_text("import os\nimport sys\n\nimport numpy as np\n\nd = sys.argv[1]\n" + LOOP + use)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL402"]
    assert [(d.span.start_line, d.data.get("use")) for d in found] == ([(8, reported)] if reported else [])


def test_a_loop_that_stops_early_has_picked_by_position(tmp_path: Path) -> None:
    body = "paths = []\nfor name in os.listdir(d):\n    paths.append(name)\n    if len(paths) == 10:\n        break\n"
    (tmp_path / "prep.py").write_text("import os\nimport sys\n\nd = sys.argv[1]\n" + body + "print(len(paths))\n")
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL402"]
    assert [(d.span.start_line, d.data.get("use")) for d in found] == [(6, "position")]
