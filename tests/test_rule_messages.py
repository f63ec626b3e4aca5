"""A finding is data; its message is the rule's template rendered with that data.

Every message emitted on the rule examples and on the labelled corpus must equal the
rule's ``message`` (or the ``messages[variant]`` its data names) formatted with the
finding's ``data``, so the documented templates stay true and tools can read the fields.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from reprolint.api import check_paths, check_sources
from reprolint.checks.base import Rule
from reprolint.checks.registry import all_rules, get_rule
from reprolint.config import Settings
from reprolint.model import Diagnostic

REPO = Path(__file__).resolve().parent.parent
RULES = all_rules()


def _example_diagnostics() -> list[Diagnostic]:
    out = []
    for rule in RULES:
        for example in rule.INVALID:
            sources = {"main.py": example.source, **dict(example.files)}
            out.extend(check_sources(sources, root="."))
    return out


EXAMPLES = _example_diagnostics()
CORPUS = check_paths([str(REPO / "corpus")], Settings(root=str(REPO)), jobs=1)


def _assert_rendered(d: Diagnostic) -> None:
    rule = get_rule(d.code)
    assert rule is not None
    variant = d.data.get("variant")
    assert variant is None or variant in rule.messages, (d.code, variant)
    assert d.message == rule.template(variant).format_map(d.data), (d.code, d.message, dict(d.data))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_example_message_is_the_template_rendered(rule: type[Rule]) -> None:
    found = [d for d in EXAMPLES if d.code == rule.code]
    if rule.code == "RPL900":
        pytest.skip("the parse error is emitted by the pipeline (see test_parse_error_message)")
    assert found, f"{rule.code}: no INVALID example reports it"
    for d in found:
        _assert_rendered(d)


def test_every_corpus_message_is_the_template_rendered() -> None:
    assert {d.code for d in CORPUS.diagnostics} >= {r.code for r in RULES} - {"RPL900"}
    for d in CORPUS.diagnostics:
        _assert_rendered(d)


def test_parse_error_message() -> None:
    (d,) = check_sources({"bad.py": "def (:\n"})
    assert d.code == "RPL900" and d.data["path"] == "bad.py"
    _assert_rendered(d)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_templates_name_only_known_fields(rule: type[Rule]) -> None:
    """Every field a template names is present in the data of the findings that use it."""
    for d in [*EXAMPLES, *CORPUS.diagnostics]:
        if d.code != rule.code:
            continue
        template = rule.template(d.data.get("variant"))
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert names <= set(d.data), (d.code, names - set(d.data))


def test_json_output_carries_entry_points_and_related_locations() -> None:
    sources = {
        "train.py": "import torch\nimport numpy as np\ntorch.manual_seed(0)\nx = np.random.rand(3)\n",
    }
    (d,) = [d for d in check_sources(sources) if d.code == "RPL101"]
    out = json.loads(json.dumps(d.to_dict()))
    assert out["entry_points"] == ["train.py"]
    assert out["related"] == [
        {"path": "train.py", "line": 3, "column": 1,
         "message": "the program seeds torch from here on, not NumPy"},
    ]
    assert d.data["variant"] == "partial" and d.data["seeded_libraries"] == ("torch",)
    assert d.message == (
        "`np.random.rand` draws from NumPy's global RNG, which is never seeded on this program's path: "
        "the program seeds torch (first with `torch.manual_seed`, train.py:3), not NumPy (entry point: train.py)"
    )


def test_a_late_seed_is_a_related_location_of_the_draw() -> None:
    sources = {"train.py": "import torch\nx = torch.randn(3)\ntorch.manual_seed(0)\n"}
    (d,) = [d for d in check_sources(sources) if d.code == "RPL101"]
    assert d.data["variant"] == "late" and d.data["seed_line"] == 3
    assert [(r.path, r.span.start_line) for r in d.related] == [("train.py", 3)]
    assert d.message == "`torch.randn` draws from torch's global RNG before `torch.manual_seed` runs (train.py:3; entry point: train.py)"


def test_a_shared_draw_names_every_entry_point() -> None:
    sources = {
        "a.py": "import model\n\nif __name__ == '__main__':\n    model.build()\n",
        "b.py": "import model\n\nif __name__ == '__main__':\n    model.build()\n",
        "model.py": "import torch\n\ndef build():\n    return torch.randn(2)\n",
    }
    (d,) = [d for d in check_sources(sources) if d.code == "RPL101"]
    assert d.path == "model.py" and d.entry_points == ("a.py", "b.py")
