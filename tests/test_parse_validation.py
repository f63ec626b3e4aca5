"""`check` parses without libcst's per-node validation (api._unvalidated_nodes); nodes
built anywhere else, as fixes build them, are still validated, and parse errors are
still RPL900 findings."""
from __future__ import annotations

import libcst as cst
import pytest

from reprolint.api import analyse_source, check_source


def test_nodes_built_after_a_check_are_validated() -> None:
    analysis = analyse_source("import torch\nx = torch.randn(3)\n", "a.py")
    assert analysis.error is None and analysis.facts is not None
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")  # the validation a fix's node gets
    with pytest.raises(cst.CSTValidationError):
        cst.Integer("1.5")


def test_a_parse_error_is_still_a_finding_and_the_tree_is_the_same() -> None:
    found = check_source("def f(:\n    pass\n", "broken.py")
    assert [(d.code, d.span.start_line) for d in found] == [("RPL900", 1)]
    source = "import torch\n\n\ndef f(x):\n    return (x  # kept\n            + 1)\n"
    assert analyse_source(source, "b.py").facts is not None
    assert cst.parse_module(source).code == source
