"""A local that holds a test of the function's arguments (`scheduled = sizes is not
None`) decides the branches on it like the test itself; a local bound twice, or bound
inside a branch, decides nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

PROGRAM = (
    "import random\n\n\n"
    "def pick(sizes=None):\n"
    "{binding}"
    "    if scheduled:\n"
    "        return random.random()\n"
    "    return 0.0\n\n\n"
    "print(pick({call}))\n"
)


@pytest.mark.parametrize(("binding", "call", "reported"), [
    ("    scheduled = sizes is not None\n", "", False),
    ("    scheduled = sizes is not None\n", "[224, 256]", True),
    ("    scheduled = not (sizes is None)\n", "", False),
    # bound again: the local no longer holds the test
    ("    scheduled = sizes is not None\n    scheduled = len(str(sizes)) > 3\n", "", True),
    # bound inside a branch: not the test on every path
    ("    scheduled = True\n    if sizes is None:\n        scheduled = sizes is not None\n", "", True),
])
def test_a_local_test_decides_like_the_test(tmp_path: Path, binding: str, call: str, reported: bool) -> None:
    (tmp_path / "run.py").write_text(PROGRAM.format(binding=binding, call=call))
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert [d.span.start_line for d in found] == ([6 + binding.count("\n")] if reported else [])
