"""RPL201-RPL204: catalog-driven, version-aware, program-aware op findings."""

from __future__ import annotations

import pytest

from reprolint.api import check_source
from reprolint.config import Settings

GNN = (
    "import torch\n"
    "device = torch.device('cuda')\n"
    "out = torch.zeros(4, device=device)\n"
    "out.index_add_(0, idx, src)\n"
    "err = torch.rand(8, 4, device=device)\n"
    "worst = torch.kthvalue(err.flatten(), 3)\n"
)


def codes(source: str, version: str | None = None) -> list[tuple[int, str]]:
    settings = Settings(torch_version=version) if version else Settings()
    return [(d.span.start_line, d.code) for d in check_source(source, "train.py", settings)
            if d.code.startswith("RPL2")]


def test_torch_version_moves_ops_between_rules() -> None:
    # 2.13: index_add_ has a deterministic kernel (RPL201); kthvalue got one in 2.10.
    assert codes(GNN, "2.13") == [(4, "RPL201")]
    # 2.9: kthvalue still raises under deterministic mode.
    assert codes(GNN, "2.9") == [(4, "RPL201"), (6, "RPL202")]
    # 1.8: index_add_ had no deterministic CUDA kernel yet, so it raises too.
    assert codes(GNN, "1.8") == [(4, "RPL202"), (6, "RPL202")]


def test_cpu_only_program_gets_no_cuda_op_findings() -> None:
    cpu = GNN.replace("torch.device('cuda')", "torch.device('cpu')")
    assert codes(cpu, "1.8") == []


def test_deterministic_mode_silences_rpl201_but_not_rpl202() -> None:
    source = "import torch\ntorch.use_deterministic_algorithms(True)\n" + GNN.split("\n", 1)[1]
    assert codes(source, "2.9") == [(7, "RPL202")]


def test_rpl202_message_names_the_alternative() -> None:
    source = (
        "import torch, torch.nn as nn\nnet = nn.AdaptiveAvgPool2d(7).cuda()\n"
        "net(x).sum().backward()\n"
    )
    [finding] = [d for d in check_source(source, "train.py") if d.code == "RPL202"]
    assert "instead:" in finding.message and "backward" in finding.message


def test_op_reached_from_another_module_is_judged_by_the_program() -> None:
    from reprolint.api import check_sources

    layers = "import torch\n\ndef aggregate(x, idx, src):\n    return x.index_add_(0, idx, src)\n"
    flagged = "import torch\nfrom layers import aggregate\nx = torch.zeros(3).cuda()\naggregate(x, i, s)\n"
    clean = "import torch\nfrom layers import aggregate\ntorch.use_deterministic_algorithms(True)\nx = torch.zeros(3).cuda()\naggregate(x, i, s)\n"
    found = check_sources({"train.py": flagged, "layers.py": layers}, root=".")
    assert [(d.path, d.span.start_line) for d in found if d.code == "RPL201"] == [("layers.py", 4)]
    found = check_sources({"train.py": clean, "layers.py": layers}, root=".")
    assert [d for d in found if d.code == "RPL201"] == []


def test_cudnn_benchmark_behind_a_default_off_option_is_not_reported() -> None:
    source = (
        "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--benchmark', action='store_true')\n"
        "args = p.parse_args()\ntorch.backends.cudnn.benchmark = args.benchmark\nnet = torch.nn.Conv2d(3, 8, 3).cuda()\n"
    )
    assert codes(source) == []
    assert codes(source.replace("'store_true'", "'store_false'")) == [(5, "RPL203")]


def test_cudnn_benchmark_follows_the_one_notion_of_uses_cuda_by_default() -> None:
    """Issue 17: RPL203 fires where RPL301/RPL302 would see CUDA, and only there."""
    cpu = (
        "import torch\ntorch.backends.cudnn.benchmark = True\nnet = torch.nn.Conv2d(3, 8, 3)\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n\nif __name__ == '__main__':\n"
        "    torch.manual_seed(0)\n    net(torch.zeros(1, 3, 8, 8)).sum().backward()\n    opt.step()\n"
    )

    def flags(source: str) -> set[str]:
        return {d.code for d in check_source(source, "train.py") if d.code[:4] in ("RPL2", "RPL3")}

    assert flags(cpu) == set()
    gpu = cpu.replace("nn.Conv2d(3, 8, 3)\n", "nn.Conv2d(3, 8, 3).cuda()\n")
    # a conv net: cuDNN (RPL302) and autotuning (RPL203); no kernel for RPL301
    assert flags(gpu) == {"RPL203", "RPL302"}
    hidden = "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\n" + gpu
    assert flags(hidden) == set()


def test_tf_data_nondeterminism_is_overridden_by_op_determinism() -> None:
    base = "import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, deterministic=False)\n"
    assert codes(base) == [(2, "RPL204")]
    assert codes(base.replace("\nds", "\ntf.config.experimental.enable_op_determinism()\nds")) == []


@pytest.mark.parametrize(("imports", "reported"), [
    ("import torch_npu\n", False),
    ("from torch_npu.contrib import transfer_to_npu\n", False),
    ("import habana_frameworks.torch.core as htcore\n", False),
    ("try:\n    import torch_npu\nexcept ImportError:\n    torch_npu = None\n", True),
    ("import torch_xla\n", True),
    ("def load():\n    import torch_npu\n", True),
])
def test_a_module_written_for_another_accelerator_runs_no_cuda_kernel(imports: str, reported: bool) -> None:
    source = (
        "import torch\n" + imports
        + "torch.manual_seed(0)\nw = torch.nn.Parameter(torch.ones(8, device='cuda'))\n"
        "h = torch.bincount(torch.tensor([0, 1, 1, 3], device='cuda'), weights=w[:4] * 2)\nh.sum().backward()\n"
    )
    codes = [d.code for d in check_source(source, "train.py")]
    assert ("RPL202" in codes) is reported, codes


@pytest.mark.parametrize(("block", "lines"), [
    ("with tf.device('/cpu:0'):\n    rows = tf.nn.embedding_lookup(table, ids)\n    s = tf.math.unsorted_segment_sum(x, ids, 4)\n", []),
    ("with tf.device('/device:CPU:0'):\n    s = tf.math.unsorted_segment_sum(x, ids, 4)\n", []),
    ("with tf.device('/gpu:0'):\n    s = tf.math.unsorted_segment_sum(x, ids, 4)\n", [7]),
    ("with tf.device('/gpu:0'):\n    rows = tf.nn.embedding_lookup(table, ids)\n", [7]),
    ("rows = tf.nn.embedding_lookup(table, ids)\n", [6]),
])
def test_tf_ops_pinned_to_the_cpu_run_no_gpu_kernel(block: str, lines: list) -> None:
    source = (
        "import tensorflow as tf\ntable = tf.Variable(tf.zeros([10, 4]))\nx = tf.Variable(tf.zeros([3, 4]))\n"
        "opt = tf.keras.optimizers.SGD()\nwith tf.GradientTape() as tape:\n"
        + "".join("    " + line + "\n" for line in block.splitlines()) + "    y = tf.reduce_sum(x)\n"
        "opt.apply_gradients(zip(tape.gradient(y, [x, table]), [x, table]))\n"
    )
    found = [d.span.start_line for d in check_source(source, "train.py") if d.code == "RPL204"]
    assert found == lines
