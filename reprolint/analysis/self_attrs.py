"""Options a class stores on ``self``: ``self.augment = augment`` in ``__init__``, then
``if self.augment:`` in a method. The fact collector records which attributes
``__init__`` stores a parameter in, once and outside any branch
(``ModuleFacts.init_attrs``), and which the class assigns anywhere else
(``reassigned_attrs``); a branch test of such an attribute is a ``("selfattr", path,
class, attr)`` tree, which a program evaluates with what its constructor calls pass
(:func:`stored_value`), as a function's own parameters are evaluated with its call's."""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst

from reprolint.analysis.condition_facts import SPREAD
from reprolint.analysis.module_facts import ModuleFacts
from reprolint.analysis.values import UNKNOWN

__all__ = ["note_self_attr", "stored_value"]


def note_self_attr(collector: Any, target: cst.Attribute, value: Optional[cst.BaseExpression]) -> None:
    """``self.augment = augment`` at the top of ``__init__`` (``init_attrs``; also a text
    method of it, ``self.split = split.lower()``); any other assignment of
    ``self.<attr>`` in the class makes it unknown (``reassigned_attrs``)."""
    cls = collector.current_class()
    if cls is None or not (isinstance(target.value, cst.Name) and target.value.value == "self"):
        return
    facts = collector.facts
    key = (cls, target.attr.value)
    scope = collector.scope
    method = ""
    if isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in _TEXT_METHODS:
        method, value = value.func.attr.value, value.func.value  # `self.split = split.lower()`
    if (
        key not in facts.init_attrs and key not in facts.reassigned_attrs
        and scope.kind == "function" and scope.name == f"{cls}.__init__." and not collector.conds
        and isinstance(value, cst.Name) and value.value in scope.params and value.value not in scope.locals
    ):
        facts.init_attrs[key] = (value.value, scope.params[value.value], method)
        return
    facts.init_attrs.pop(key, None)
    facts.reassigned_attrs.add(key)


# Methods of a text that give another text of it alone: `self.split = split.lower()`
# stores the lower-cased value of what a call passes.
_TEXT_METHODS = frozenset({"lower", "upper", "strip", "casefold"})


def _text_method(value: Any, method: str) -> Any:
    """``value`` after ``value.<method>()`` (a text method of ``_TEXT_METHODS``); UNKNOWN
    for what is not a text."""
    if not method:
        return value
    return getattr(value, method)() if isinstance(value, str) else UNKNOWN


def stored_value(
    facts: Optional[ModuleFacts], calls: Optional[list[tuple[tuple[str, Any], ...]]], cls: str, attr: str,
    option: Callable[[str], Any],
) -> Any:
    """What ``self.attr`` holds in the methods of ``cls`` (of the module ``facts``) when
    ``__init__`` stores a parameter there: the value every constructor call of the
    program (``calls``: their bindings) passes for it, or the parameter's default where a
    call visibly leaves it out; UNKNOWN where the calls differ, one passes what is not
    known (``option`` reads an option a call passes), or none is seen. An attribute
    ``__init__`` does not store so is read as the option of that name."""
    from reprolint.analysis.conditions import tree_value

    stored = facts.init_attrs.get((cls, attr)) if facts is not None else None
    if stored is None:
        return option(attr)
    if not calls:
        return UNKNOWN
    param, default, method = stored
    values = []
    for bindings in calls:
        tree = dict(bindings).get(param)
        if tree is None:
            value = default if all(name != SPREAD for name, _ in bindings) else UNKNOWN
        else:  # a literal, an option, another class's `self.x`; a parameter the caller
            # passes on is not known here
            value = tree_value(tree, option, params=False)
        value = _text_method(value, method) if value != UNKNOWN else value
        if value == UNKNOWN or (values and value != values[0]):
            return UNKNOWN
        values.append(value)
    return values[0]
