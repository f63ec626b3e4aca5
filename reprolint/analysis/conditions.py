"""Truth of the conditions :mod:`reprolint.analysis.condition_facts` collects, under
the default option values and what the call that ran a body passed for its parameters.

:func:`evaluate` decides a condition (True, False, or None where it is not known),
:func:`tree_value` reads one side of it; :func:`named_bindings` names a call's
positional places by the callee's parameters. The execution walker and the program's
option lookups use them; they depend on no program state of their own.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from reprolint.analysis.condition_facts import DEFAULTS, NO_GRAD_ARGUMENT, SOME_VALUE, TEST_ARGUMENT, TEXT_ARGUMENT
from reprolint.analysis.values import UNKNOWN

# What a bound parameter reads as when the call passed a value that is not None but
# otherwise unknown (SOME_VALUE, text, a tensor): only `is None` tests are decided.
_NOT_NONE = object()
_NOT_NONE_ARGUMENTS = (SOME_VALUE, TEXT_ARGUMENT, NO_GRAD_ARGUMENT)

__all__ = ["evaluate", "named_bindings", "tree_value"]


def evaluate(
    tree: Any, lookup: Callable[[str], Any], params: bool = True, bindings: tuple[tuple[str, Any], ...] = (),
    surely: bool = False,
) -> Optional[bool]:
    """Truth of a condition under the default option values; None when unknown
    (``params=False``: a function parameter's default is unknown too, since a caller
    may pass another value; ``bindings``: what the call that runs the function passes
    for its parameters, which wins over their defaults; ``surely``: a candidate of a
    dispatch by a name no default decides is not taken, though it may be)."""
    kind = tree[0]
    if kind == "anyof":  # one of several ways through, each with its own bindings
        results = [_holds(way, lookup, params, surely) for way in tree[1]]
        return True if True in results else None if None in results else False
    if kind == "not":
        inner = evaluate(tree[1], lookup, params, bindings, surely)
        return None if inner is None else not inner
    if kind in ("and", "or"):
        values = [evaluate(t, lookup, params, bindings, surely) for t in tree[1:]]
        if kind == "and":
            if False in values:
                return False
            return None if None in values else True
        if True in values:
            return True
        return None if None in values else False
    if kind in ("isnone", "notnone", "truthy", "cmp"):
        value = tree_value(tree[1], lookup, params, bindings)
        if value is _NOT_NONE:
            return (kind == "notnone") if kind in ("isnone", "notnone") else None
        if value == UNKNOWN:
            # a candidate picked by a name no default decides (analysis/dispatch.py): the
            # program may reach it, but not surely (what ``surely`` asks)
            return False if surely and kind == "cmp" and tree[2] == "named" else None
        if kind == "isnone":
            return value is None
        if kind == "notnone":
            return value is not None
        if kind == "truthy":
            return bool(value)
        op, right = tree[2], tree[3]
        if op == "named":
            if value not in tree[4]:
                # the key names a candidate the analysis does not see: any may run, none surely
                return False if surely else None
            return value in right
        if op == "in":
            return value in right
        if op == "has":  # a literal string in the value
            return right in value if isinstance(value, (str, tuple, list)) else None
        if op in ("is", "is not"):  # `x is False`: the very bool
            return (value is right) == (op == "is")
        try:
            return {
                "==": value == right, "!=": value != right,
                "<": value < right, "<=": value <= right,
                ">": value > right, ">=": value >= right,
            }[op]
        except TypeError:
            return None if value is not None else (op == "!=")
    return None


def tree_value(tree: Any, lookup: Callable[[str], Any], params: bool = True, bindings: tuple[tuple[str, Any], ...] = ()) -> Any:
    if tree[0] == TEST_ARGUMENT:  # a test the call passed: its truth (the caller's parameters unknown)
        truth = evaluate(tree[1], lookup, params=False)
        return UNKNOWN if truth is None else truth
    if tree[0] == "const":
        if len(tree) < 4:
            return tree[1]
        bound = next((value for name, value in bindings if name == tree[3]), None)
        if bound in _NOT_NONE_ARGUMENTS:
            return _NOT_NONE
        if bound is not None:
            return tree_value(bound, lookup)
        if params or (bindings and bindings[-1][0] == DEFAULTS):
            return tree[1]  # the call that ran the body left it out: its default
        return UNKNOWN
    if tree[0] in ("attr", "selfattr"):  # an option; `self.augment` (Program.lookup)
        return lookup(tree[1] if tree[0] == "attr" else tree)  # type: ignore[arg-type]
    if tree[0] == "sized":  # a list or tuple written out, its elements not known: its length
        return (UNKNOWN,) * tree[1]
    if tree[0] == "len":
        value = tree_value(tree[1], lookup, params, bindings)
        if value == UNKNOWN or value is _NOT_NONE or not isinstance(value, (tuple, str)):
            # (UNKNOWN is a string: not a length); a list or dict a constructor stores
            # (`self.terminals = []`) may grow before the test reads it
            return UNKNOWN
        return len(value)
    return UNKNOWN


def _holds(way: tuple[Any, ...], lookup: Callable[[str], Any], params: bool, surely: bool) -> Optional[bool]:
    """Whether every condition of one way through holds (None: not known)."""
    unknown = False
    for tree, polarity, bindings in way:
        value = evaluate(tree, lookup, params, bindings, surely)
        if value is None:
            unknown = True
        elif value != polarity:
            return False
    return None if unknown else True


def named_bindings(bindings: tuple[tuple[str, Any], ...], function: Any, method: str) -> tuple[tuple[str, Any], ...]:
    """A call's bindings with positional places ("#0") named by the callee's parameters
    (a method's or a constructor's first parameter is the instance: `Net(3)` binds the
    parameter after `self`); places past the callee's named parameters are dropped."""
    if not any(name.startswith("#") for name, _ in bindings):
        return bindings
    params = function.positional if function is not None else ()
    skip = 1 if method and params and params[0] in ("self", "cls") else 0
    out = []
    for name, value in bindings:
        if name.startswith("#"):
            place = int(name[1:]) + skip
            if place >= len(params):
                continue
            name = params[place]
        out.append((name, value))
    return tuple(out)
