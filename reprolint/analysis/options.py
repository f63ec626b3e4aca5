"""How a user asks for a step the default options skip: the options named as flags
(``--cuda``, ``--device cuda``, ``--gpu ...``), read from the branch conditions on the
way to it (issue 25: GPU selected by an option)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional

from reprolint.analysis.conditions import evaluate
from reprolint.analysis.execution import Step

__all__ = ["asked_by_options", "options_read"]


def asked_by_options(step: Step, lookup: Callable[[str], Any], flags: Mapping[str, str]) -> Optional[str]:
    """How a user runs a step that the default options skip, when only option values
    skip it: the options named as flags (``--cuda``, ``--device cuda``, ``--gpu N``)."""
    asks: list[str] = []
    conds = [g.cond for g in step.outer] + list(step.own_conds())
    for cond in conds:
        value = evaluate(cond.tree, lookup)
        if value is None or value == cond.polarity:
            continue
        ask = _ask(cond.tree, cond.polarity, lookup, flags)
        if ask is None:
            return None
        asks.append(ask)
    return ", ".join(dict.fromkeys(asks)) if asks else None


def _ask(tree: Any, want: bool, lookup: Callable[[str], Any], flags: Mapping[str, str]) -> Optional[str]:
    """What a user passes to make a simple condition on one option ``want``."""
    kind = tree[0]
    if kind == "not":
        return _ask(tree[1], not want, lookup, flags)
    if kind in ("and", "or") and want == (kind == "and"):  # every part must be `want`
        # every part the defaults make false must be asked for (`args.cuda and
        # torch.cuda.is_available()`); the unknown parts are the machine's
        parts = [t for t in tree[1:] if evaluate(t, lookup) is (not want)]
        asks = [_ask(t, want, lookup, flags) for t in parts]
        return None if not asks or None in asks else ", ".join(a for a in asks if a)
    if kind in ("and", "or"):
        asks = [_ask(t, want, lookup, flags) for t in tree[1:]]
        return next((a for a in asks if a), None)
    if kind not in ("truthy", "cmp", "isnone", "notnone") or tree[1][0] not in ("attr", "selfattr"):
        return None
    name = tree[1][1] if tree[1][0] == "attr" else tree[1][3]  # `self.cuda`: an option of that name, if any
    flag = flags.get(name)
    if flag is None:
        return None
    base, valued = flag.removesuffix(" ..."), flag.endswith(" ...")
    if kind == "truthy":
        # a store_true flag is passed bare; a valued one (`type=str2bool`) gets a value
        if not want:
            return None
        if not valued:
            return f"`{base}`"
        return f"`{base} true`" if isinstance(lookup(name), bool) else f"`{base} ...`"
    if kind == "notnone" and want or kind == "isnone" and not want:
        return f"`{base} ...`"
    if kind == "cmp" and tree[2] == "==" and want:
        return f"`{base} {tree[3]}`"
    if kind == "cmp" and want:
        return f"`{base}` {tree[2]} {tree[3]!r}"
    return None


def options_read(tree: Any, bindings: tuple[tuple[str, Any], ...] = ()) -> tuple[str, ...]:
    """The options a condition's tree reads, in order: its ``("attr", name)`` leaves
    (``args.seed``, ``cfg["seed"]``, a name bound to one), and the options a call bound
    to the parameters it tests (``if seed is not None:`` in ``set_seed(args.seed)``)."""
    found: dict[str, None] = {}

    def visit(node: Any, bound: tuple[tuple[str, Any], ...]) -> None:
        if type(node) is not tuple or not node or type(node[0]) is not str:
            return
        kind = node[0]
        if kind in ("attr", "selfattr"):
            found[node[1] if kind == "attr" else node[3]] = None
        elif kind == "const":
            if len(node) >= 4:  # a parameter: what the call passes for it
                visit(next((value for name, value in bound if name == node[3]), None), ())
        elif kind == "anyof":  # each way through with its own bindings
            for way in node[1]:
                for part, _, way_bound in way:
                    visit(part, way_bound)
        else:
            for part in node[1:]:
                visit(part, bound)

    visit(tree, bindings)
    return tuple(found)
