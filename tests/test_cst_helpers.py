"""reprolint.analysis.cst_helpers.children lists exactly libcst's ``node.children``."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from reprolint.analysis.cst_helpers import children

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

SNIPPETS = {
    "decorated async def": (
        "@dataclass(frozen=True)  # note\n@other\nasync def f(a, /, b: int = 1, *args, c, **kw) -> int:\n"
        "    async with a as x, b:\n        await x\n    async for i in y:\n        yield i\n"
    ),
    "class with keywords": "class A(B, metaclass=M):\n    '''doc'''\n    x: int = 1\n    def g(self): ...\n",
    "comprehensions": "a = [x for x in y if x if not x]\nb = {k: v for k, v in d.items()}\nc = {x async for x in z}\nd = (i for i in r)\n",
    "f-strings": "s = f'{a!r:>{width}} {b=} {{lit}}'\nt = 'a' 'b' f'c{d}'\n",
    "operators": "x = not a and b or c\ny = -a ** b // c @ d\nz = a if b else c\nw = (n := 10)\nq = a < b <= c is not d not in e\n",
    "subscripts": "x = a[1:2, ::3, ...]\ny = a[b][c]\nz = a.b.c(d)(e)\n",
    "statements": (
        "import a.b as c, d\nfrom .e import (f, g as h)\nfrom k import *\nglobal gg\n"
        "try:\n    pass\nexcept (A, B) as e:\n    raise C from e\nelse:\n    del x[0], y\nfinally:\n    assert z, 'm'\n"
        "while True:\n    break\nelse:\n    continue_ = 1\nwith (open(p) as f, open(q) as g):\n    pass\n"
        "x += 1; y: list[int]\nlambda a, *b, c=1, **d: a\nprint(*args, **kwargs)\n"
    ),
    "match": "match p:\n    case [1, *rest] | {'k': v, **kw} if v:\n        pass\n    case Point(x=0) as pt:\n        pass\n    case _:\n        pass\n",
    "except star": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "comments and blank lines": "\n\n# header\n\nx = 1  # trailing\n\n\n# footer\n",
}


def _all_nodes(module: cst.Module) -> list[cst.CSTNode]:
    out, stack = [], [module]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def _same_children(source: str) -> None:
    module = cst.parse_module(source)
    for node in _all_nodes(module):
        expected = [id(child) for child in node.children]
        assert [id(child) for child in children(node)] == expected, type(node).__name__


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_children_match_libcst_on_snippets(name: str) -> None:
    _same_children(SNIPPETS[name])


@pytest.mark.slow
def test_children_match_libcst_on_the_corpus() -> None:
    files = sorted(CORPUS.rglob("*.py"))
    assert len(files) > 50
    checked = 0
    for path in files:
        try:
            source = path.read_text(encoding="utf-8")
            cst.parse_module(source)
        except Exception:  # noqa: BLE001 - the corpus holds unparsable files on purpose
            continue
        _same_children(source)
        checked += 1
    assert checked > 50


def test_the_node_classes_tested_by_type_have_no_subclasses() -> None:
    # The fact pass asks `type(node) is cst.Name` for `isinstance(node, cst.Name)`: the
    # same answer only while libcst (or anything loaded) subclasses none of them.
    import reprolint.analysis.facts  # noqa: F401 - load everything the pass loads
    from reprolint.analysis.cst_helpers import CONCRETE

    assert CONCRETE
    for name in CONCRETE:
        kind = getattr(cst, name)
        assert kind.__subclasses__() == [], kind


def test_simple_code_is_what_libcst_renders() -> None:
    from reprolint.analysis.cst_helpers import simple_code

    source = (
        "import a . b\nimport c.\\\n d\nx = (e).f\ny = (g.h)\nz = i.j.k\nw = ( m )\n"
        "if not (a is not None and b.c == -1) or d not in e: pass\n"
        "if f(x, *y, k = 2, **z) and g( h ,) or i(j=( 1 ), k='s')( ): pass\n"
        "if (a\n    and b): pass\n"
        "v = f(a,\n      b)\n"
        "u = [a for a in b if a < 1.5 <= c]\n"
    )
    module = cst.parse_module(source)
    rendered = []
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        stack.extend(children(node))
        text = simple_code(node)
        if text is not None:
            assert text == module.code_for_node(node)
            rendered.append(text)
    assert {
        "i.j.k", "( m )", "(e).f", "(g.h)", "not (a is not None and b.c == -1) or d not in e",
        "f(x, *y, k = 2, **z) and g( h ,) or i(j=( 1 ), k='s')( )", "a < 1.5 <= c",
    } <= set(rendered)
    # a line break inside (the indentation libcst adds depends on the block): not simple
    assert "(a\n    and b)" not in rendered and not any(t.startswith("f(a,") for t in rendered)
    assert "a . b" in rendered and "c.\\\n d" in rendered  # a backslash continuation is plain text
