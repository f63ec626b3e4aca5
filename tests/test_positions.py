"""reprolint.analysis.positions: spans taken from the source (ast order, text) are the
spans of the code-generation pass, node for node."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reprolint.analysis.cst_helpers import descendants
from reprolint.analysis.positions import SourceSpans, codegen_spans, node_spans
from reprolint.model import Span
from reprolint.python2 import expanded_indentation

ROOT = Path(__file__).resolve().parent.parent


def _python3(path: Path) -> bool:
    try:
        ast.parse(path.read_text("utf-8"))
    except SyntaxError:
        return False
    return True


# the Python 2 scripts are analysed through their Python 3 reading
# (reprolint/python2.py), whose own test checks the lines it keeps
CORPUS = sorted(p for p in (ROOT / "corpus").rglob("*.py") if _python3(p))


def _nodes(module: cst.Module) -> list[cst.CSTNode]:
    """Every expression and statement of the module."""
    kinds = (cst.BaseExpression, cst.BaseStatement, cst.BaseSmallStatement)
    return [node for node in descendants(module) if isinstance(node, kinds)]


def _calls(module: cst.Module) -> list[cst.Call]:
    return [n for n in _nodes(module) if isinstance(n, cst.Call)]


def _compare(source: str) -> dict[int, Span]:
    """Spans found in the source for every node; each must be the pass's span."""
    module = cst.parse_module(source)
    nodes = _nodes(module)
    reference = codegen_spans(module, nodes)
    found = SourceSpans(module, source).spans(nodes)
    wrong = {
        module.code_for_node(n): (found[id(n)], reference[id(n)])
        for n in nodes if id(n) in found and found[id(n)] != reference[id(n)]
    }
    assert not wrong
    assert node_spans(module, nodes, source) == reference
    return found


def _call_spans(source: str) -> dict[str, Span]:
    """The span of each call, by the code of what it calls, found in the source (all
    must be found there)."""
    module = cst.parse_module(source)
    calls = _calls(module)
    found = SourceSpans(module, source).spans(calls)
    assert set(found) == {id(c) for c in calls}, "a call was left to the pass"
    return {module.code_for_node(c.func): found[id(c)] for c in calls}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_corpus_file_spans_equal_the_pass(path: Path) -> None:
    source = path.read_text("utf-8")
    try:
        cst.parse_module(source)
    except cst.ParserSyntaxError:
        # a file CPython reads that libcst's tokenizer does not (a tab-indented line
        # under spaces): reprolint analyses it with the tabs expanded, as here
        source = expanded_indentation(source)
    found = _compare(source)
    assert found or "(" not in source


def test_non_ascii_before_a_call_counts_characters() -> None:
    source = 'naïve = "été"; émission = f(x)\n'
    assert _call_spans(source) == {"f": Span(1, 27, 1, 31)}
    _compare(source)


def test_tabs_and_continuations() -> None:
    source = "if x:\n\tif y:\n\t\tz = g(1, \\\n\t\t      2)\nw = h(3)\n"
    spans = _call_spans(source)
    assert spans["g"] == Span(3, 7, 4, 11)
    assert spans["h"] == Span(5, 5, 5, 9)
    _compare(source)


def test_form_feeds_leave_it_to_the_pass() -> None:
    # libcst drops a form feed that starts a line: its columns there do not count it.
    source = "x = 1\n\x0cw = h(3)\n"
    module = cst.parse_module(source)
    calls = _calls(module)
    expected = {id(calls[0]): Span(2, 5, 2, 9)}
    assert node_spans(module, calls, source) == codegen_spans(module, calls) == expected


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_windows_and_old_mac_line_endings(newline: str) -> None:
    lines = ["import torch", "def f():", "    a = torch.randn(", "        3)", "    return a", ""]
    source = newline.join(lines)
    assert _call_spans(source) == {"torch.randn": Span(3, 9, 4, 11)}
    _compare(source)


def test_parentheses_around_a_node_are_not_its_span() -> None:
    source = "y = ((f(x)))\nz = (a).b[(0)]\nw = (g)(1)\n"
    spans = _call_spans(source)
    assert spans["f"] == Span(1, 7, 1, 11)
    assert spans["(g)"] == Span(3, 5, 3, 11)
    _compare(source)


def test_decorators_nested_and_chained_calls() -> None:
    source = "@dec(1)\n@mod.dec2(f(g(x))(y))\ndef run(a=h()):\n    return k(a)(b).c(d)\n"
    spans = _call_spans(source)
    assert spans["f(g(x))"] == Span(2, 11, 2, 21)  # f(g(x))(y)
    assert spans["f"] == Span(2, 11, 2, 18)
    assert spans["g"] == Span(2, 13, 2, 17)
    assert spans["k(a)(b).c"] == Span(4, 12, 4, 24)
    assert spans["dec"] == Span(1, 2, 1, 8)
    _compare(source)


def test_multi_line_call_in_an_indented_block() -> None:
    source = (
        "class A:\n    def f(self):\n        return torch.manual_seed(\n"
        "            self.seed,\n        )\n"
    )
    assert _call_spans(source) == {"torch.manual_seed": Span(3, 16, 5, 10)}
    _compare(source)


def test_calls_inside_f_strings() -> None:
    # Python 3.11's ast misplaces nodes inside f-strings: found by their text instead.
    source = 'print(f"{g(x)} and {h(x)!r:>{w(1)}}" "tail")\nv = f"{k(1)}" f"{k(1)}"\n'
    module = cst.parse_module(source)
    calls = {module.code_for_node(c): c for c in _calls(module)}
    found = SourceSpans(module, source).spans(list(calls.values()))
    assert found[id(calls["g(x)"])] == Span(1, 10, 1, 14)
    assert found[id(calls["w(1)"])] == Span(1, 30, 1, 34)
    # the same call twice in one f-string: the pass tells them apart
    assert id(calls["k(1)"]) not in found
    _compare(source)


def test_dotted_imports_are_not_attributes_for_ast() -> None:
    source = "import torch.nn\nfrom a.b import c\nx = torch.nn.Linear(1, 2)\n"
    module = cst.parse_module(source)
    attributes = [n for n in _nodes(module) if isinstance(n, cst.Attribute)]
    found = SourceSpans(module, source).spans(attributes)
    by_code = {module.code_for_node(a): found.get(id(a)) for a in attributes}
    assert by_code["torch.nn.Linear"] == Span(3, 5, 3, 20)
    _compare(source)


@pytest.mark.parametrize("source", [
    "def f[T](x: T) -> T:\n    return g(x)\n",  # PEP 695
    "type Alias = list[int]\ny = g(1)\n",
    'v = f"{d["k"]}"\ny = g(1)\n',  # PEP 701 quotes
])
def test_syntax_newer_than_ast_leaves_calls_to_the_pass(source: str) -> None:
    # libcst parses these; Python 3.11's ast does not
    module = cst.parse_module(source)
    calls = _calls(module)
    assert SourceSpans(module, source).spans(calls) == {}
    assert node_spans(module, calls, source) == codegen_spans(module, calls)
    _compare(source)


def test_a_bom_is_not_the_source_libcst_saw() -> None:
    module = cst.parse_module("x = f(1)\n")
    calls = _calls(module)
    assert node_spans(module, calls, "\ufeffx = f(1)\n") == codegen_spans(module, calls)


def test_encoding_cookie_and_elif() -> None:
    source = "# -*- coding: latin-1 -*-\nif a:\n    pass\nelif b(1):\n    c = 'ü' + d(2)\n"
    spans = _call_spans(source)
    assert spans["d"] == Span(5, 15, 5, 19)
    _compare(source)


_FRAGMENTS = [
    "x = f(a)(b)",
    "y = 'ß' + g(c, *d, **e)",
    "z = (h)(i)[j].k(l)",
    "print(f'{m(1)}', n[o](p))",
    "q = [r(s) for s in t(u)]",
    "v = w.x.y(z=lambda: aa(bb))",
    "import cc.dd",
    "ee = ff(\n    gg,\n    hh(ii),\n)",
    "if jj(kk):\n    ll = mm(nn)\nelif oo(pp):\n    qq(rr)",
    "@ss(tt)\ndef uu(vv=ww(xx)):\n    return yy(zz)",
    "é = ü(ö)",
    "aaa = bbb(ccc) \\\n    + ddd(eee)",
    "with fff(ggg) as hhh, iii[jjj]:\n\tkkk(lll)",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["", "    ", "\t"]),
)
def test_any_mix_of_fragments_matches_the_pass(
    fragments: list[str], newline: str, indent: str
) -> None:
    body = "\n".join(fragments).replace("\n", "\n" + indent) if indent else "\n".join(fragments)
    source = (f"def outer():\n{indent}{body}\n" if indent else body + "\n").replace("\n", newline)
    _compare(source)


@pytest.mark.slow
def test_torch_nn_spans_equal_the_pass() -> None:
    """Every call of torch's nn package: what the source gives is the pass's span, and
    the source gives nearly all of them."""
    torch = pytest.importorskip("torch")
    compared = found_in_source = 0
    for path in sorted((Path(torch.__file__).parent / "nn").rglob("*.py")):
        source = path.read_text("utf-8")
        module = cst.parse_module(source)
        calls = _calls(module)
        reference = codegen_spans(module, calls)
        found = SourceSpans(module, source).spans(calls)
        assert all(reference[key] == span for key, span in found.items()), path
        assert node_spans(module, calls, source) == reference, path
        compared += len(calls)
        found_in_source += len(found)
    assert compared > 5_000
    assert found_in_source > 0.95 * compared


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cyclic_gc_is_left_as_it_was(enabled: bool) -> None:
    import gc

    source = "x = f(1)\n"
    module = cst.parse_module(source)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        node_spans(module, _calls(module), source)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
