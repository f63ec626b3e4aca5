"""`patch()`: which ops it replaces (from the catalog), where it engages, and undoing it.

The machine running the tests has no GPU, so the dispatch tests register the same
kernels on the CPU key (`_dispatch_key="CPU"`) and check which calls reach them.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest

torch = pytest.importorskip("torch")

from reprolint.runtime import patches  # noqa: E402


def kernel_line(op: str, key: str) -> str:
    lines = [line for line in torch._C._dispatch_dump(op).splitlines() if line.startswith(key + ":")]
    return lines[0] if lines else ""


@pytest.fixture
def on_cpu() -> Iterator[Any]:
    """Patches registered on the CPU key for one test, then removed."""
    patches.unpatch()
    patches.patch(_dispatch_key="CPU")
    try:
        yield patches
    finally:
        patches.unpatch()


def spec(op: str) -> patches.OpPatch:
    [found] = [p for p in patches.PATCHES if p.op == op]
    return found


def test_the_catalog_decides_which_ops_are_patched() -> None:
    now = [p.op for p in patches.planned("2.13.0")]
    assert now == ["aten::histc", "aten::bincount", "aten::median", "aten::scatter_reduce", "aten::index_reduce"]
    # kthvalue has a deterministic CUDA kernel from torch 2.10 on (catalog: kthvalue-cuda).
    assert "aten::kthvalue" in [p.op for p in patches.planned("2.9.1")]


def test_catalog_argument_conditions_decide_per_call() -> None:
    x = torch.tensor([1, 2])
    w = torch.tensor([0.5, 1.0])
    assert patches.engages(spec("aten::bincount"), (x, w, 0), {}, "2.13.0")
    assert not patches.engages(spec("aten::bincount"), (x, None, 0), {}, "2.13.0")
    # Before 2.1 every CUDA bincount raised under the flag.
    assert patches.engages(spec("aten::bincount"), (x, None, 0), {}, "2.0.0")
    s = torch.zeros(3)
    reduce = spec("aten::scatter_reduce")
    assert patches.engages(reduce, (s, 0, x, w, "prod"), {"include_self": True}, "2.13.0")
    assert not patches.engages(reduce, (s, 0, x, w, "sum"), {"include_self": True}, "2.13.0")
    assert patches.engages(spec("aten::median"), (s, 0, False), {}, "2.13.0")
    assert patches.engages(spec("aten::index_reduce"), (s, 0, x, w, "amax"), {}, "2.13.0")


def test_patch_registers_cuda_kernels_only_and_unpatch_restores() -> None:
    patches.unpatch()
    before = {op: (kernel_line(op, "CUDA"), kernel_line(op, "CPU")) for op in ("aten::histc", "aten::median.dim")}
    try:
        ops = patches.patch()
        assert ops == patches.patched() == [p.op for p in patches.planned()]
        assert patches.patch() == ops  # idempotent
        for op in ("aten::histc", "aten::median.dim", "aten::scatter_reduce.two", "aten::index_reduce_"):
            assert "reprolint/runtime/patches.py" in kernel_line(op, "CUDA"), op
            assert "reprolint" not in kernel_line(op, "CPU"), op
        # CPU tensors never reach the replacements.
        torch.histc(torch.randn(20), 4)
        torch.randn(3, 4).median(1)
        assert patches.replaced_calls() == {}
    finally:
        patches.unpatch()
    assert patches.patched() == []
    after = {op: (kernel_line(op, "CUDA"), kernel_line(op, "CPU")) for op in ("aten::histc", "aten::median.dim")}
    assert after == before


def test_dispatch_engages_only_where_the_catalog_says(on_cpu: Any) -> None:
    x = torch.tensor([0, 2, 2, 5])
    counts = torch.bincount(x)  # no weights: torch's kernel
    assert on_cpu.replaced_calls() == {}
    weighted = torch.bincount(x, torch.tensor([1.0, 2.0, 3.0, 4.0]))
    assert on_cpu.replaced_calls() == {"aten::bincount": 1}
    assert counts.tolist() == [1, 0, 2, 0, 0, 1]
    assert weighted.tolist() == [1.0, 0.0, 5.0, 0.0, 0.0, 4.0]

    s = torch.ones(3)
    index = torch.tensor([0, 0, 2])
    src = torch.tensor([2.0, 3.0, 4.0])
    assert s.scatter_reduce(0, index, src, "sum").tolist() == [6.0, 1.0, 5.0]
    assert "aten::scatter_reduce" not in on_cpu.replaced_calls()
    assert s.scatter_reduce(0, index, src, "prod").tolist() == [6.0, 1.0, 4.0]
    s.scatter_reduce_(0, index, src, "prod", include_self=False)  # the in-place overload
    assert s.tolist() == [6.0, 1.0, 4.0]
    assert on_cpu.replaced_calls()["aten::scatter_reduce"] == 2


def test_patched_ops_give_torch_results_through_the_dispatcher() -> None:
    g = torch.Generator().manual_seed(1)
    x = torch.randn(200, generator=g)
    m = torch.randn(6, 9, generator=g)
    keys = torch.randint(0, 10, (200,), generator=g)
    expected = (torch.histc(x, 13), torch.median(m, 1), torch.bincount(keys, x.double()))
    patches.unpatch()
    patches.patch(_dispatch_key="CPU")
    try:
        actual = (torch.histc(x, 13), torch.median(m, 1), torch.bincount(keys, x.double()))
        assert set(patches.replaced_calls()) == {"aten::histc", "aten::median", "aten::bincount"}
    finally:
        patches.unpatch()
    assert torch.equal(expected[0], actual[0])
    assert torch.equal(expected[1].values, actual[1].values)
    assert torch.equal(expected[1].indices, actual[1].indices)
    torch.testing.assert_close(expected[2], actual[2])


def test_autograd_still_works_through_a_patched_op(on_cpu: Any) -> None:
    t = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    value, _ = t.median(0)
    value.backward()
    assert t.grad.tolist() == [0.0, 0.0, 1.0]
    assert on_cpu.replaced_calls() == {"aten::median": 1}


@pytest.mark.slow  # a fresh interpreter that imports torch
def test_install_patch_true_applies_the_patches(run_python: Any) -> None:
    ran = run_python(
        """
        import json, reprolint.runtime
        reprolint.runtime.install(seed=0, patch=True, record_dir="rec")
        import torch
        from reprolint.runtime import patches
        line = [l for l in torch._C._dispatch_dump("aten::histc").splitlines() if l.startswith("CUDA:")][0]
        import reprolint.runtime._session as s
        s.current().save()
        record = json.load(open("rec/record.json"))
        print(json.dumps({"patched": patches.patched(), "ours": "reprolint" in line,
                          "flags": record["flags"].get("patched_ops")}))
        """
    )
    result = ran.json()
    assert result["patched"] == [p.op for p in patches.planned()]
    assert result["ours"] is True
    assert result["flags"] == result["patched"]


@pytest.mark.slow  # a fresh interpreter that imports torch
def test_install_without_patch_leaves_kernels_alone(run_python: Any) -> None:
    ran = run_python(
        """
        import json, reprolint.runtime
        reprolint.runtime.install(seed=0, record_dir="rec")
        import torch
        from reprolint.runtime import patches
        print(json.dumps(patches.patched()))
        """
    )
    assert json.loads(ran.out.strip().splitlines()[-1]) == []


@pytest.mark.slow  # a fresh interpreter that imports torch
def test_importing_the_runtime_does_not_import_torch(run_python: Any) -> None:
    ran = run_python(
        """
        import sys, reprolint.runtime
        assert callable(reprolint.runtime.patch) and callable(reprolint.runtime.unpatch)
        print("torch" in sys.modules)
        """
    )
    assert ran.out.strip() == "False"
