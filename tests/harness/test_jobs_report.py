"""What the reports say about where runs ran: nodes, devices, overlap; verify --plot."""

from __future__ import annotations

import copy
import os
import sys
from pathlib import Path

import pytest

from reprolint.harness.backends.nodeinfo import describe, follows_node
from reprolint.harness.backends.report_lines import device_text, execution_lines

PY = sys.executable


def _node(node_id: str, gpu: str = "") -> dict:
    info = describe({"PYTHONHASHSEED": "0"}, node_id)
    info = copy.deepcopy(info)
    info["host"] = f"host-{node_id[:1]}"
    info["gpus"] = [{"name": gpu, "driver": "550.54"}] if gpu else []
    return info


def test_describe_reads_this_machine() -> None:
    info = describe({"PYTHONHASHSEED": "5", "PATH": "/bin"})
    assert info["cpu"] and info["python"] == ".".join(map(str, sys.version_info[:3]))
    assert info["flags"] == {"PYTHONHASHSEED": "5"}  # determinism-related variables only
    assert info["node_id"] is None


def test_differences_that_follow_the_node_are_named_with_what_differs() -> None:
    a, b = _node("a1111111", "NVIDIA A100-SXM4-80GB"), _node("b2222222", "NVIDIA H100 80GB HBM3")
    note = follows_node([("run 1", a, "x"), ("run 2", a, "x"), ("run 3", b, "y"), ("run 4", b, "y")])
    assert note == (
        "runs on host-a (node a11111) agree bit for bit; runs on host-b (node b22222) differ from "
        "them: different GPU model (the difference follows the node)"
    )


def test_differences_on_one_node_do_not_follow_the_node() -> None:
    a, b = _node("a1111111"), _node("b2222222")
    note = follows_node([("run 1", a, "x"), ("run 2", a, "y"), ("run 3", b, "x")])
    assert note == ("runs on the same node differ (host-a (node a11111)): the difference does not "
                    "follow the node or the device")
    assert follows_node([("run 1", a, "x"), ("run 2", b, "x")]) is None  # all agree
    assert follows_node([("run 1", a, "x"), ("run 2", a, "y")]) is None  # one machine


def test_same_device_on_both_nodes_is_said() -> None:
    a, b = _node("a1111111"), _node("b2222222")
    note = follows_node([("run 1", a, "x"), ("run 2", b, "y")])
    assert note is not None and "differ from them: same device, libraries and flags" in note


def test_execution_lines_name_the_overlap_and_every_node() -> None:
    class Run:
        def __init__(self, node: dict) -> None:
            self.node = node

    a = _node("a1111111", "NVIDIA A100-SXM4-80GB")
    a["cuda"], a["cudnn"] = "12.4", "9.1.0.70"
    execution = {"backend": "ray", "jobs": 4, "max_concurrent": 2, "overlapped": True, "spread": True,
                 "working_dir": "upload", "nodes": ["host-a (node a11111)"]}
    lines = execution_lines(execution, [Run(a)], ["run 1"], None)
    assert lines[0] == ("ran on Ray (1 node, working directory upload, spread over the nodes), up to 4 "
                        "at a time: up to 2 runs overlapped on one machine, so their timing figures are perturbed")
    assert lines[1].startswith("run 1: host-a (node a11111): NVIDIA A100-SXM4-80GB (driver 550.54), CUDA 12.4, cuDNN 9.1.0.70; Python ")
    assert lines[1].endswith("; PYTHONHASHSEED=0")
    assert "Python" in device_text(_node("c3"))
    assert execution_lines(None, [], [], None) == []


TINY_TRAINING = """
import torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.ones(8, 4), torch.zeros(8, 1)
for _ in range(4):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
"""


def test_verify_plot_draws_both_curves(verify, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    (tmp_path / "tiny.py").write_text(TINY_TRAINING)
    result = verify("--plot", "out/curves.png", "--output-format", "json", "--", PY, "tiny.py")
    assert result.status == 1, result  # unseeded initialisation
    data = result.json()
    assert data["plot"] == "out/curves.png"
    png = (tmp_path / "out" / "curves.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_verify_plot_without_matplotlib_names_the_extra(verify, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = verify("--plot", "x.png", "--", PY, "-c", "pass")
    assert result.status == 2
    assert "reprolint[plot]" in result.err
    assert not os.path.exists("x.png")
