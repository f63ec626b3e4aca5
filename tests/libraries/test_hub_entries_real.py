"""`torch.hub.load(repo, entry)` against the real torch.hub, from a hub repository on
disk (`source="local"`): the entry builds its model (drawing every weight from torch's
global RNG) and, where its `pretrained` parameter says so, loads trained weights over
them. `check` leaves the draw where the project's own hubconf.py makes the entry load
weights by default, or the call passes `pretrained=True`, and reports it otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

torch = pytest.importorskip("torch")

HUBCONF = (
    "import os\n\nimport torch\n\ndependencies = ['torch']\n\n\n"
    "def _build():\n    return torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 2))\n\n\n"
    "def _load(model, pretrained):\n"
    "    if pretrained:\n"
    "        model.load_state_dict(torch.load(os.path.join(os.path.dirname(__file__), 'weights.pt')))\n"
    "    return model\n\n\n"
    "def tiny(pretrained=True):\n    return _load(_build(), pretrained)\n\n\n"
    "def tiny_scratch(pretrained=False):\n    return _load(_build(), pretrained)\n"
)


def _hub(tmp_path: Path) -> Path:
    (tmp_path / "hubconf.py").write_text(HUBCONF)
    torch.manual_seed(123)
    torch.save(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 2)).state_dict(), tmp_path / "weights.pt")
    return tmp_path


def _weights(hub: Path, entry: str, seed: int, **kwargs) -> list[float]:
    torch.manual_seed(seed)
    model = torch.hub.load(str(hub), entry, source="local", **kwargs)
    return [v for p in model.parameters() for v in p.detach().flatten().tolist()]


@pytest.mark.parametrize(("entry", "kwargs", "drawn"), [
    ("tiny", {}, False),
    ("tiny_scratch", {}, True),
    ("tiny_scratch", {"pretrained": True}, False),
    ("tiny", {"pretrained": False}, True),
])
def test_the_drawn_weights_reach_the_model_exactly_when_check_reports_them(
    tmp_path: Path, entry: str, kwargs: dict, drawn: bool,
) -> None:
    hub = _hub(tmp_path)
    assert (_weights(hub, entry, 1, **kwargs) != _weights(hub, entry, 2, **kwargs)) == drawn
    argument = "".join(f", {k}={v!r}" for k, v in kwargs.items())
    (hub / "predict.py").write_text(
        "import json\nimport sys\n\nimport torch\n\n"
        f"model = torch.hub.load('.', {entry!r}, source='local'{argument})\n"
        "with torch.no_grad():\n    print(model(torch.tensor(json.load(open(sys.argv[1])))))\n"
    )
    found = [d for d in check_paths([str(hub)], jobs=1).diagnostics if d.code == "RPL101"]
    assert [(Path(d.path).name, d.span.start_line) for d in found] == ([("predict.py", 6)] if drawn else [])
