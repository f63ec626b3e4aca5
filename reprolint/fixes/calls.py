"""Call-site codemods: keywords, seed arguments, ``sorted(...)`` around an expression.

Each function takes the call (or expression) node as it is in the tree being rebuilt and
returns its replacement; :func:`reprolint.fixes.rewrite` applies one to the node a
diagnostic points at. Formatting of the rest of the call (line breaks, trailing
commas, comments between arguments) is kept.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from reprolint.analysis.cst_helpers import find_argument

__all__ = [
    "add_keyword",
    "find_argument",
    "set_argument",
    "wrap_call",
]


def _separated(args: list[cst.Arg]) -> list[cst.Arg]:
    """Commas between arguments, keeping existing ones (and a trailing one if present)."""
    out = []
    for i, arg in enumerate(args):
        last = i == len(args) - 1
        if not last and arg.comma is cst.MaybeSentinel.DEFAULT:
            arg = arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        out.append(arg)
    return out


def add_keyword(call: cst.Call, name: str, value: cst.BaseExpression, replace: bool = False) -> cst.Call:
    """``call`` with ``name=value`` appended (or its value replaced when ``replace``).

    A call that already passes ``name`` is returned unchanged unless ``replace``; one
    with ``**kwargs`` gets the keyword before the ``**`` argument, where Python allows it.
    """
    for i, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == name:
            if not replace:
                return call
            args = list(call.args)
            args[i] = arg.with_changes(value=value)
            return call.with_changes(args=args)
    new = cst.Arg(
        value=value,
        keyword=cst.Name(name),
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )
    args = list(call.args)
    star = next((i for i, a in enumerate(args) if a.star == "**"), len(args))
    if args and star == len(args) and args[-1].comma is not cst.MaybeSentinel.DEFAULT:
        # A trailing comma (often a multi-line call): keep the layout, one arg per line.
        last = args[-1]
        if len(args) >= 2 and isinstance(args[-2].comma, cst.Comma):
            between = args[-2].comma
        else:
            between = cst.Comma(whitespace_after=call.whitespace_before_args)
        after_last = last.comma.whitespace_after  # type: ignore[union-attr]
        if isinstance(after_last, cst.ParenthesizedWhitespace) and isinstance(
            between.whitespace_after, cst.ParenthesizedWhitespace
        ):
            # A comment after the old last argument stays on its line.
            gap = between.whitespace_after
            args[-1] = last.with_changes(
                comma=last.comma.with_changes(  # type: ignore[union-attr]
                    whitespace_after=after_last.with_changes(indent=gap.indent, last_line=gap.last_line)
                )
            )
            new = new.with_changes(
                comma=cst.Comma(whitespace_after=after_last.with_changes(first_line=cst.TrailingWhitespace()))
            )
        else:
            new = new.with_changes(comma=last.comma)
            args[-1] = last.with_changes(comma=between)
        args.append(new)
        return call.with_changes(args=args)
    args.insert(star, new)
    return call.with_changes(args=_separated(args))


def set_argument(
    call: cst.Call,
    value: cst.BaseExpression,
    keyword: Optional[str] = None,
    position: Optional[int] = 0,
) -> cst.Call:
    """``call`` with its seed-like argument set to ``value``.

    The argument passed as ``keyword=`` or at ``position`` gets the new value; when there
    is none, ``value`` is added as the positional argument at ``position`` (or as
    ``keyword=`` when ``position`` is None).
    """
    found = find_argument(call, keyword, position)
    if found is not None:
        return call.with_changes(
            args=[a.with_changes(value=value) if a is found else a for a in call.args]
        )
    if position is None:
        if keyword is None:
            raise ValueError("set_argument needs a keyword or a position")
        return add_keyword(call, keyword, value)
    args = list(call.args)
    if not args:
        call = call.with_changes(whitespace_before_args=cst.SimpleWhitespace(""))
    positional = [i for i, a in enumerate(args) if a.keyword is None and not a.star]
    if len(positional) < position:
        raise ValueError(f"cannot add a positional argument at {position}")
    index = positional[position - 1] + 1 if position > 0 else 0
    args.insert(index, cst.Arg(value=value))
    return call.with_changes(args=_separated(args))


def wrap_call(expression: cst.BaseExpression, function: str = "sorted") -> cst.BaseExpression:
    """``function(expression)``; an expression already wrapped in it is returned as is."""
    if (
        isinstance(expression, cst.Call)
        and isinstance(expression.func, cst.Name)
        and expression.func.value == function
    ):
        return expression
    inner = expression
    # Parentheses around the expression belong to it; moving them inside keeps the text.
    lpar, rpar = getattr(expression, "lpar", ()), getattr(expression, "rpar", ())
    if lpar:
        inner = expression.with_changes(lpar=(), rpar=())
    return cst.Call(func=cst.Name(function), args=[cst.Arg(value=inner)], lpar=lpar, rpar=rpar)
