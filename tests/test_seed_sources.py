"""Where a seed comes from: a variable and an attribute of the same name are two values
(`seed = int(time.time())` is not `args.seed`), and a seed drawn inline from the library
it seeds is drawn before the seeding (Python evaluates the arguments first)."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

OPTIONS = (
    "import argparse\nimport time\n\nimport torch\n\n"
    "parser = argparse.ArgumentParser()\nparser.add_argument('--seed', type=int, default=0)\n"
    "args = parser.parse_args()\n"
)


def _rpl103(tmp_path: Path, source: str) -> list[tuple[int, str]]:
    (tmp_path / "train.py").write_text(source)
    found = check_paths([str(tmp_path)], jobs=1).diagnostics
    return [(d.span.start_line, d.message) for d in found if d.code == "RPL103"]


def test_an_attribute_is_not_the_variable_of_its_name(tmp_path: Path) -> None:
    source = OPTIONS + "seed = int(time.time())\nprint(seed)\ntorch.manual_seed(args.seed)\nprint(torch.rand(2))\n"
    assert _rpl103(tmp_path, source) == []


def test_an_attribute_holding_entropy_is_followed(tmp_path: Path) -> None:
    source = OPTIONS + "args.seed = int(time.time())\ntorch.manual_seed(args.seed)\nprint(torch.rand(2))\n"
    found = _rpl103(tmp_path, source)
    assert [line for line, _ in found] == [10] and "`time.time()`" in found[0][1]


def test_a_seed_drawn_inline_from_the_library_it_seeds(tmp_path: Path) -> None:
    source = "import numpy as np\n\nnp.random.seed(np.random.randint(0, 2**31 - 1))\nprint(np.random.rand())\n"
    found = _rpl103(tmp_path, source)
    assert [line for line, _ in found] == [3] and "picks the seed of NumPy from NumPy's global RNG" in found[0][1]


@pytest.mark.parametrize(("after", "reported"), [
    ("print(colours)\n", False),  # nothing draws from NumPy after the reseed
    ("print(colours, np.random.rand())\n", True),
    ("print(colours, np.random.permutation(4))\n", True),
])
def test_an_entropy_reseed_matters_only_where_a_draw_follows(after: str, reported: bool) -> None:
    from reprolint.api import check_source

    source = (
        "import numpy as np\n\n\ndef palette(n):\n    colours = list(range(n))\n    np.random.seed(10101)\n"
        "    np.random.shuffle(colours)\n    np.random.seed(None)\n    return colours\n\n\n"
        "colours = palette(8)\n" + after
    )
    found = [d.span.start_line for d in check_source(source, "draw_boxes.py") if d.code == "RPL103"]
    assert found == ([8] if reported else [])
