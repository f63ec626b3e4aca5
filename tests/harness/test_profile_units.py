"""`profile`'s comparison of two op records and its catalog advice, without running anything."""

from __future__ import annotations

from typing import Any, List, Optional

from reprolint.harness._profile_advice import advice_for, catalog_names
from reprolint.harness._profile_recorder import FLAG_OPTIMIZER, FLAG_RANDOM
from reprolint.harness.profile import first_divergence


def record(ops: List[List[Any]], names: List[str], boundaries: Optional[List[int]] = None) -> dict:
    """ops: [name index, input digests, output digests, flags] (meta and module fixed)."""
    return {
        "tables": {"names": names, "meta": ["float32[2];float32[2]", "float32[2]"], "modules": [], "nodes": []},
        "ops": [[n, i, 0, o, 1, None, f] for n, i, o, f in ops],
        "boundaries": boundaries or [],
    }


NAMES = ["aten::mm", "aten::index_add_", "aten::uniform_"]


def test_identical_records_have_no_divergence() -> None:
    ops = [[0, [1, 2], [3], 0], [1, [3], [4], 0]]
    assert first_divergence(record(ops, NAMES), record(ops, NAMES)) is None


def test_equal_inputs_and_different_outputs_blame_the_op() -> None:
    a = record([[0, [1, 2], [3], 0], [1, [3], [4], 0]], NAMES)
    b = record([[0, [1, 2], [3], 0], [1, [3], [5], 0]], NAMES)
    d = first_divergence(a, b)
    assert d is not None
    assert (d.verdict, d.op, d.index, d.differing) == ("op", "aten::index_add_", 1, ["output 0 (float32[2])"])


def test_a_random_op_with_different_outputs_is_unseeded_randomness() -> None:
    a = record([[2, [None], [7], FLAG_RANDOM]], NAMES)
    b = record([[2, [None], [8], FLAG_RANDOM]], NAMES)
    d = first_divergence(a, b)
    assert d is not None and d.verdict == "random"


def test_uninitialised_memory_is_not_compared() -> None:
    # None: an input that an `empty` op allocated and nothing wrote.
    a = record([[2, [None], [7], FLAG_RANDOM], [1, [7], [9], 0]], NAMES)
    b = record([[2, [12345], [7], FLAG_RANDOM], [1, [7], [9], 0]], NAMES)
    assert first_divergence(a, b) is None


def test_different_inputs_first_means_the_cause_is_outside_torch_ops() -> None:
    a = record([[0, [1, 2], [3], 0]], NAMES)
    b = record([[0, [1, 9], [3], 0]], NAMES)
    d = first_divergence(a, b)
    assert d is not None and (d.verdict, d.differing) == ("inputs", ["input 1 (float32[2])"])


def test_different_ops_are_a_control_flow_divergence_with_step_and_phase() -> None:
    a = record([[0, [1], [3], 0], [0, [1], [3], FLAG_OPTIMIZER], [1, [3], [4], 0]], NAMES, boundaries=[2])
    b = record([[0, [1], [3], 0], [0, [1], [3], FLAG_OPTIMIZER], [2, [3], [4], 0]], NAMES, boundaries=[2])
    d = first_divergence(a, b)
    assert d is not None
    assert (d.verdict, d.op, d.other_op, d.index, d.step) == ("control-flow", "aten::index_add_", "aten::uniform_", 2, 2)
    shorter = record([[0, [1], [3], 0]], NAMES)
    d = first_divergence(a, shorter)
    assert d is not None and (d.verdict, d.op, d.other_op, d.index) == ("control-flow", "aten::mm", "<end>", 1)


def test_catalog_names_of_aten_ops() -> None:
    assert "Tensor.index_add_" in catalog_names("aten::index_add_")
    assert "torch.nn.functional.interpolate" in catalog_names("aten::upsample_bilinear2d_backward.grad_input")
    assert "torch.nn.functional.embedding_bag" in catalog_names("aten::_embedding_bag_backward")
    assert catalog_names("mylib::op") == []


def test_advice_comes_from_the_catalog() -> None:
    index_add = advice_for("aten::index_add_", "op", "2.13.0")
    assert index_add.catalogued and index_add.entries == ["index-add-cuda"]
    assert index_add.lines[0].startswith("RPL201 index-add-cuda: deterministic on CUDA with torch.use_deterministic_algorithms")
    histc = advice_for("aten::histc", "op", "2.13.0")
    assert histc.entries == ["histc-cuda"] and histc.patched_by_runtime
    assert histc.lines[0].startswith("RPL202 histc-cuda: no deterministic kernel on CUDA; torch.use_deterministic_algorithms(True) makes it raise")
    assert histc.lines[-1].startswith("reprolint.runtime.patch()")
    interpolate = advice_for("aten::upsample_bilinear2d_backward", "op", "2.13.0")
    assert "interpolate-linear-backward-cuda" in interpolate.entries


def test_advice_for_a_custom_op_and_for_non_op_causes() -> None:
    custom = advice_for("mylib::fast_sum", "op", "2.13.0")
    assert not custom.catalogued and custom.lines[0].startswith("`mylib::fast_sum` is a custom op: ")
    assert "torch.manual_seed" in advice_for("aten::normal_", "random").lines[0]
    assert "reprolint verify --replay" in advice_for("aten::lift_fresh", "inputs").lines[0]
