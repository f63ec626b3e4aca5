"""Comparing checkpoints tensor by tensor (torch.load with weights_only=True)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.harness.artifacts import compare_artifact, summarize

torch = pytest.importorskip("torch")


def save(path: Path, obj) -> Path:
    torch.save(obj, path)
    return path


def test_identical_state_dicts(tmp_path: Path) -> None:
    state = {"fc.weight": torch.randn(3, 4), "fc.bias": torch.full((3,), float("nan"))}
    result = compare_artifact("m.pt", save(tmp_path / "a.pt", state), save(tmp_path / "b.pt", state))
    assert result.equal and result.tensors == 2
    assert summarize(result) == ("identical", "2 tensors identical")


def test_max_abs_and_rel_difference(tmp_path: Path) -> None:
    a = {"w": torch.tensor([1.0, 2.0, 4.0]), "b": torch.zeros(2)}
    b = {"w": torch.tensor([1.0, 2.5, 4.0]), "b": torch.zeros(2)}
    result = compare_artifact("m.pt", save(tmp_path / "a.pt", a), save(tmp_path / "b.pt", b))
    assert not result.equal
    [diff] = result.differing
    assert (diff.name, diff.max_abs, diff.max_rel) == ("w", 0.5, 0.25)
    assert summarize(result) == ("differs", "1 of 2 tensors differ; largest: w max |Δ| 5.00e-01 (rel 2.50e-01)")


def test_nested_checkpoint_with_optimizer_state_and_shape_change(tmp_path: Path) -> None:
    a = {"model": {"w": torch.ones(2, 3)}, "epoch": 3, "opt": {"state": {0: {"step": torch.tensor(5.0)}}}}
    b = {"model": {"w": torch.ones(3, 2)}, "epoch": 4, "opt": {"state": {0: {"step": torch.tensor(5.0)}}}}
    result = compare_artifact("ckpt.pt", save(tmp_path / "a.pt", a), save(tmp_path / "b.pt", b))
    notes = {d.name: d.note for d in result.differing}
    assert notes == {"model.w": "shape (2, 3) vs (3, 2)", "epoch": "3 vs 4"}
    assert result.tensors == 2


def test_negative_zero_is_not_zero(tmp_path: Path) -> None:
    result = compare_artifact(
        "m.pt", save(tmp_path / "a.pt", {"x": torch.tensor([0.0])}),
        save(tmp_path / "b.pt", {"x": torch.tensor([-0.0])}),
    )
    assert not result.equal


def test_other_files_are_compared_byte_for_byte(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("loss 0.5\n")
    (tmp_path / "b.txt").write_text("loss 0.6\n")
    (tmp_path / "c.txt").write_text("loss 0.5\n")
    assert not compare_artifact("log.txt", tmp_path / "a.txt", tmp_path / "b.txt").equal
    same = compare_artifact("log.txt", tmp_path / "a.txt", tmp_path / "c.txt")
    assert same.equal and same.kind == "bytes"


def test_numpy_arrays(tmp_path: Path) -> None:
    import numpy as np

    np.save(tmp_path / "a.npy", np.arange(4.0))
    np.save(tmp_path / "b.npy", np.arange(4.0) * 2)
    result = compare_artifact("x.npy", tmp_path / "a.npy", tmp_path / "b.npy")
    assert result.kind == "tensors" and result.differing[0].max_abs == 3.0
