"""A seed drawn from an unseeded global RNG is RPL103 (not RPL101) however it reaches the
seeding: handed to a project helper that seeds, or written as the fallback of an
expression (`x if args.seed is None else ...`, `args.seed or ...`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

HELPER = "import random\nimport torch\n\n\ndef set_seed(seed):\n    random.seed(seed)\n    torch.manual_seed(seed)\n"
HEAD = "import argparse\nimport random\nimport torch\nfrom helpers import set_seed\n\nseed = None\n"
CASES = [
    ("seed = random.randint(1, 100)\nset_seed(seed)\n", "RPL103", {"random", "torch"}),
    ("seed = random.randint(1, 100) if seed is None else seed\ntorch.manual_seed(seed)\n", "RPL103", {"torch"}),
    ("seed = seed or random.randint(1, 100)\ntorch.manual_seed(seed)\n", "RPL103", {"torch"}),
    ("seed = seed or 7\nset_seed(seed)\n", None, set()),
    ("noise = random.randint(1, 100)\nset_seed(3)\nprint(noise)\n", "RPL101", {"random"}),
]


@pytest.mark.parametrize(("code", "expected", "libraries"), CASES)
def test_a_drawn_seed_is_an_entropy_seed(tmp_path: Path, code: str, expected: str | None, libraries: set[str]) -> None:
    (tmp_path / "helpers.py").write_text(HELPER)
    (tmp_path / "train.py").write_text(HEAD + code + "print(torch.randn(2))\n")
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code in ("RPL101", "RPL103")]
    assert [(d.code, Path(d.path).name, d.span.start_line) for d in found] == (
        [(expected, "train.py", 7)] if expected else []
    )
    if expected == "RPL103":
        assert set(found[0].data["seeded_libraries"]) == libraries
