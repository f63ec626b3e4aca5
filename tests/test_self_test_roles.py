"""A model file's `__main__` block that only builds, switches modes, prints the model and
the output's size is a self-test, also when the model loads pretrained weights: no value
it draws reaches what it shows (issue 26, round q: semseg's psanet.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

BACKBONE = (
    "import torch\nimport torch.nn as nn\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.conv = nn.Conv2d(3, 8, 3)\n\n"
    "    def forward(self, x):\n        return self.conv(x)\n\n\n"
    "def backbone(pretrained=False):\n"
    "    model = Net()\n"
    "    if pretrained:\n"
    "        model.load_state_dict(torch.load('initmodel/net.pth'))\n"
    "    return model\n"
)
SEG = (
    "import torch\nimport torch.nn as nn\n\nimport model.backbones as models\n\n\n"
    "class Seg(nn.Module):\n"
    "    def __init__(self, classes=21, pretrained=True):\n"
    "        super().__init__()\n"
    "        self.body = models.backbone(pretrained=pretrained)\n"
    "        self.head = nn.Conv2d(8, classes, 1)\n\n"
    "    def forward(self, x):\n        return self.head(self.body(x))\n\n\n"
    "if __name__ == '__main__':\n"
    "    import os\n"
    "    os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
    "    crop = 65\n"
    "    x = torch.rand(2, 3, crop, crop).cuda()\n"
    "    model = Seg(classes=21, pretrained=True).cuda()\n"
    "    print(model)\n"
    "    model.eval()\n"
    "    output = model(x)\n"
    "    {show}\n"
)


@pytest.mark.parametrize(("show", "reported"), [
    ("print('Seg', output.size())", False),
    ("print(output.argmax(1))", True),  # shows values the random input decides
])
def test_a_self_test_of_a_pretrained_model_shows_no_drawn_value(tmp_path: Path, show: str, reported: bool) -> None:
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "backbones.py").write_text(BACKBONE)
    (tmp_path / "model" / "seg.py").write_text(SEG.format(show=show))
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert bool([d for d in found if d.path.endswith("seg.py") and d.span.start_line == 21]) is reported


TOP_LEVEL = (Path(__file__).parent.parent / "corpus" / "projects" / "model_self_tests" / "models"
             / "fpn_shape_check.py").read_text()


@pytest.mark.parametrize(("edit", "reported"), [
    (None, False),
    (("print(fm.size())", "print(fm.sum())"), True),  # shows values the draws decide
    (("\ntest()\n", "\ntest()\ntorch.save(FPN18().state_dict(), 'fpn.pth')\n"), True),  # other top-level work
])
def test_a_model_file_calling_its_own_shape_check_at_top_level(tmp_path: Path, edit, reported: bool) -> None:
    text = TOP_LEVEL if edit is None else TOP_LEVEL.replace(*edit)
    (tmp_path / "fpn.py").write_text(text)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL101"]
    assert bool(found) is reported
