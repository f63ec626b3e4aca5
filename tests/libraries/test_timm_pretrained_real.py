"""The catalog's timm entry against the real timm: `create_model(name, pretrained=True)`
loads trained weights over every drawn one (the model's weights do not depend on torch's
seed), while `num_classes` other than the checkpoint's makes a new classifier head, drawn.
The checkpoint is a file on disk (`pretrained_cfg_overlay=dict(file=...)`): no network."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_source

torch = pytest.importorskip("torch")
timm = pytest.importorskip("timm")


def _weights(seed: int, checkpoint: Path, **kwargs: object) -> dict[str, "torch.Tensor"]:
    torch.manual_seed(seed)
    model = timm.create_model("resnet18", pretrained=True, pretrained_cfg_overlay=dict(file=str(checkpoint)), **kwargs)
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def test_pretrained_weights_replace_every_drawn_one_but_a_new_head(tmp_path: Path) -> None:
    checkpoint = tmp_path / "resnet18.pth"
    torch.manual_seed(123)
    torch.save(timm.create_model("resnet18").state_dict(), checkpoint)
    first, second = _weights(1, checkpoint), _weights(2, checkpoint)
    assert all(torch.equal(first[k], second[k]) for k in first)
    first, second = _weights(1, checkpoint, num_classes=10), _weights(2, checkpoint, num_classes=10)
    changed = {k for k in first if not torch.equal(first[k], second[k])}
    assert changed and all(k.startswith("fc.") for k in changed)


@pytest.mark.parametrize(("arguments", "draws"), [
    ("'resnet18'", True),
    ("'resnet18', pretrained=True", False),
    ("'resnet18', True", False),
    ("'resnet18', pretrained=True, num_classes=10", True),
])
def test_rpl101_reports_a_timm_model_exactly_where_its_weights_are_drawn(arguments: str, draws: bool) -> None:
    source = (
        "import timm\nimport torch\n"
        f"model = timm.create_model({arguments})\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(torch.zeros(2, 3, 64, 64)).sum().backward()\nopt.step()\n"
    )
    reported = [d.span.start_line for d in check_source(source, path="train.py") if d.code == "RPL101"]
    assert reported == ([3] if draws else []), arguments
