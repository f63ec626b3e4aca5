"""A name bound once, outside any branch, to an option (`seed = args.seed`) is that
option in later tests: its default decides them. Bound again, it decides nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

HEAD = "import argparse\nimport torch\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--seed', type=int)\nargs = parser.parse_args()\n"


@pytest.mark.parametrize(("body", "codes"), [
    ("seed = args.seed\nif seed is not None:\n    torch.manual_seed(seed)\n", ["RPL104"]),
    ("def main(a):\n    s = a.seed\n    if s:\n        torch.manual_seed(s)\n\n\nmain(args)\n", ["RPL104"]),
    ("seed = args.seed\nif seed is None:\n    seed = 0\nif seed is not None:\n    torch.manual_seed(seed)\n", []),
    ("seed = args.seed if args.seed else 0\nif seed is not None:\n    torch.manual_seed(seed)\n", []),
])
def test_a_copied_option_is_tested_by_its_default(tmp_path: Path, body: str, codes: list[str]) -> None:
    (tmp_path / "train.py").write_text(HEAD + body + "print(torch.randn(2))\n")
    found = [d.code for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code in ("RPL101", "RPL104")]
    assert found == codes
