"""RPL101 names the project calls through which the program reaches its first draws:
`model = build()` in the entry point for a layer drawn in models.py, outermost first,
after the other draws of the cause."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

MODELS = (
    "import torch.nn as nn\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(3, 1)\n\n\n"
    "def build():\n"
    "    return Net()\n"
)
TRAIN = (
    "import torch\nfrom models import build\n\n\n"
    "def main():\n"
    "    model = build()\n"
    "    noise = torch.randn(2, 3)\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "    model(noise).sum().backward()\n"
    "    opt.step()\n\n\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def test_the_calls_that_reach_the_draws_are_related_locations(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "train.py").write_text(TRAIN)
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert (Path(finding.path).name, finding.span.start_line) == ("models.py", 7)
    assert [(Path(r.path).name, r.span.start_line) for r in finding.related] == [
        ("train.py", 7),  # the other draw of the cause
        ("train.py", 14), ("train.py", 6), ("models.py", 11),  # main() -> build() -> Net()
    ]
    assert finding.related[2].message == "this call of `build` leads to the draw `nn.Linear` at " + str(tmp_path / "models.py") + ":7"


def test_a_draw_written_where_the_program_starts_has_no_calls(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import torch\nx = torch.randn(3)\nprint(x)\n")
    [finding] = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert finding.related == ()
