"""Generators made from OS entropy and seeded by the next statement that uses them.

``rs = np.random.RandomState()`` followed by ``rs.seed(1)`` (or ``g = torch.Generator()``
then ``g.manual_seed(s)``) draws nothing before the seed call: the stream every later
draw sees is the seeded one, so the constructor without a seed is not an RPL102 problem.
The answer rests on statement order within one block: the first statement after the
assignment that names the generator must be the seed call itself, with a seed argument
(``rs.seed()`` and ``rs.seed(None)`` reseed from OS entropy again). Anything else first
(a draw, passing the generator on, a branch that mentions it) keeps the finding.

A generator held where several functions reach it (a module-level name, ``self.rng`` of
a class) is often a placeholder: built without a seed in ``__init__`` or at import, and
seeded in place or replaced by a seeded one in another function before the draws
(``self.rng = random.Random(seed + epoch)`` at the start of ``__iter__``,
``def seed(s): np_random.seed(s)``). :func:`reseeded_holders` finds the holders a
module seeds that way; their unseeded constructor is not reported. Statement order
across functions is not followed (a draw through a path that skips the reseed is a
known blind spot).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence

import libcst as cst

from reprolint.analysis.cst_helpers import descendants, literal, mentions_of, self_attr

# The methods that seed a generator in place, by library: NumPy's RandomState and
# Python's random.Random take `seed(s)`; a torch.Generator takes `manual_seed(s)`.
SEED_METHODS = frozenset({"seed", "manual_seed"})


if TYPE_CHECKING:  # an alias evaluated at import would load the real libcst early
    Site = tuple[str, Sequence[cst.BaseStatement], int]


def constructor_sites(body: Sequence[cst.BaseStatement]) -> dict[int, Site]:
    """The calls without arguments that a statement of ``body`` assigns to a name or to
    ``self.attr`` (``rs = RandomState()``), by id: (target, body, index of the statement).
    Whether the call builds a generator is asked later, when its names are qualified."""
    sites: dict[int, Site] = {}
    for i, stmt in enumerate(body):
        if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
            continue
        assign = stmt.body[0]
        if type(assign) is cst.Assign and len(assign.targets) == 1:
            target_node: cst.BaseExpression = assign.targets[0].target
        elif type(assign) is cst.AnnAssign and assign.value is not None:
            target_node = assign.target
        else:
            continue
        value = assign.value
        if type(value) is not cst.Call or value.args:
            continue
        target = _target_text(target_node)
        if target is not None:
            sites[id(value)] = (target, body, i)
    return sites


def seeded_before_use(site: Site, is_seed: Callable[[cst.BaseExpression], bool]) -> bool:
    """Whether the first later statement of the block that names the target seeds it
    in place with a seed ``is_seed`` accepts (not ``None``, not an entropy source)."""
    target, body, index = site
    for later in body[index + 1:]:
        if _names(later, target):
            return _seeds(later, target, is_seed)
    return False


# A holder: (class name or None for a module-level name, "name" or "self.attr").
Holder = tuple[Optional[str], str]


def reseeded_holders(module: cst.Module) -> tuple[set[Holder], dict[Holder, list[cst.Call]]]:
    """What the functions of ``module`` seed in place, and what their methods assign a
    call with arguments to (``self`` attributes only), by holder: ``np_random.seed(s)`` (a module-level name, inside a
    function), ``self.rng.seed(s)`` / ``self.g.manual_seed(s)`` and ``self.rng =
    random.Random(s)`` (an attribute, inside a method of the class). A seed that is a
    literal ``None`` does not count. The assigned calls are returned for the caller to
    qualify (whether they build a generator is a question of the module's imports)."""
    seeded: set[Holder] = set()
    replaced: dict[Holder, list[cst.Call]] = {}

    def scan(node: cst.CSTNode, cls: Optional[str], in_function: bool) -> None:
        for child in node.children:
            kind = type(child)
            if kind is cst.ClassDef:
                scan(child, child.name.value, False)  # type: ignore[attr-defined]
                continue
            if kind is cst.FunctionDef:
                scan(child, cls, True)
                continue
            if in_function and kind is cst.Call:
                func = child.func  # type: ignore[attr-defined]
                if type(func) is cst.Attribute and func.attr.value in SEED_METHODS and len(child.args) == 1:  # type: ignore[attr-defined]
                    holder = _holder(func.value, cls)
                    seed = child.args[0].value  # type: ignore[attr-defined]
                    if holder is not None and not (type(seed) is cst.Name and seed.value == "None"):
                        seeded.add(holder)
            elif in_function and kind is cst.Assign and type(child.value) is cst.Call and child.value.args:  # type: ignore[attr-defined]
                for target in child.targets:  # type: ignore[attr-defined]
                    holder = _holder(target.target, cls)
                    if holder is not None and holder[0] is not None:  # a function's name may be its own local
                        replaced.setdefault(holder, []).append(child.value)  # type: ignore[attr-defined]
            scan(child, cls, in_function)

    scan(module, None, False)
    return seeded, replaced


def _holder(node: cst.BaseExpression, cls: Optional[str]) -> Optional[Holder]:
    if type(node) is cst.Name:
        return None, node.value  # type: ignore[attr-defined]
    attr = self_attr(node)
    return None if attr is None or cls is None else (cls, f"self.{attr}")


def _target_text(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    attr = self_attr(node)
    return None if attr is None else f"self.{attr}"


def _names(stmt: cst.CSTNode, target: str) -> bool:
    if "." not in target:
        return mentions_of(stmt, target)
    return any(isinstance(n, cst.Attribute) and _target_text(n) == target for n in descendants(stmt))


def _seeds(stmt: cst.BaseStatement, target: str, is_seed: Callable[[cst.BaseExpression], bool]) -> bool:
    """``target.seed(s)`` / ``target.manual_seed(s)`` as a statement of its own."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    expr = stmt.body[0]
    if not isinstance(expr, cst.Expr) or not isinstance(expr.value, cst.Call):
        return False
    call = expr.value
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in SEED_METHODS:
        return False
    if _target_text(func.value) != target or len(call.args) != 1:
        return False
    keyword = call.args[0].keyword
    if keyword is not None and keyword.value != "seed":
        return False
    seed = call.args[0].value
    return literal(seed) is not None and is_seed(seed)
