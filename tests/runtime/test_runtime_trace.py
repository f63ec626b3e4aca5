"""Digests, parameter names and JSON conversion of the step tracer (needs torch)."""

from __future__ import annotations

import pytest

from reprolint.runtime._trace import digests, jsonable, parameter_names

torch = pytest.importorskip("torch")


def test_digest_detects_a_one_ulp_change() -> None:
    a = torch.linspace(-1, 1, 1000)
    b = a.clone()
    b[500] = torch.nextafter(b[500], torch.tensor(2.0))
    da, db = digests(torch, [a]), digests(torch, [b])
    assert da == digests(torch, [a.clone()])
    assert da[0][0] != db[0][0]


def test_digest_handles_mixed_dtypes() -> None:
    tensors = [torch.ones(3, dtype=torch.float16), torch.ones(2, dtype=torch.float64),
               torch.arange(4), torch.zeros(0), torch.ones(2, dtype=torch.bfloat16)]
    result = digests(torch, tensors)
    assert len(result) == 5
    assert result[1][1] == 2.0 and result[2][1] == 6.0


def test_parameter_names_come_from_the_whole_model() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    params = list(model.parameters())
    assert parameter_names(torch, params) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_jsonable_keeps_values_exact() -> None:
    assert jsonable({"acc": torch.tensor(0.1), "preds": torch.tensor([1, 2])}) == {
        "acc": torch.tensor(0.1).item(), "preds": [1, 2]
    }
    assert jsonable((1, 2.5, "x", None)) == [1, 2.5, "x", None]
