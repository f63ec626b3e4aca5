"""Generators made from OS entropy and seeded by the next statement that uses them.

``rs = np.random.RandomState()`` followed by ``rs.seed(1)`` (or ``g = torch.Generator()``
then ``g.manual_seed(s)``) draws nothing before the seed call: the stream every later
draw sees is the seeded one, so the constructor without a seed is not an RPL102 problem.
The answer rests on statement order within one block: the first statement after the
assignment that names the generator must be the seed call itself, with a seed argument
(``rs.seed()`` and ``rs.seed(None)`` reseed from OS entropy again). Anything else first
(a draw, passing the generator on, a branch that mentions it) keeps the finding.
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
