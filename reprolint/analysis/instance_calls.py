"""Which project class an instance name holds, for the calls that run its ``forward``.

``model = Net(3).to(device)``, ``model = nn.DataParallel(model)``, ``self.encoder =
Encoder(...)``: a later ``model(x, y)`` or ``self.encoder(x)`` runs ``Net.forward`` or
``Encoder.forward`` with those arguments. The fact collector keeps what each name (per
scope) and each ``self`` attribute (per class) holds, and emits an
:class:`~reprolint.analysis.module_facts.InstanceCall` at such a call: what the call
passes reaches ``forward``'s parameters (a batch that requires no grad, for the op
rules' ``param-input`` facts)."""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from reprolint.analysis.cst_helpers import self_attr

__all__ = ["forward_target", "method_target", "note_binding"]

# Methods that return the module itself (or a copy of the same class).
_KEEPS_INSTANCE = frozenset({
    "to", "cuda", "cpu", "float", "half", "double", "bfloat16", "train", "eval", "requires_grad_", "share_memory",
    "to_empty",
})
# Wrappers whose call runs the wrapped module's forward with the same arguments.
_WRAPPERS = frozenset({
    "torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.DistributedDataParallel",
    "torch.nn.parallel.data_parallel.DataParallel", "torch.nn.parallel.distributed.DistributedDataParallel",
})


def _key(collector: Any, target: cst.BaseExpression) -> Optional[tuple[Any, str]]:
    if type(target) is cst.Name:
        return (id(collector.scope), target.value)
    attr = self_attr(target)
    cls = collector.current_class()
    return (cls, "." + attr) if attr is not None and cls is not None else None


def _held(collector: Any, node: cst.BaseExpression) -> Optional[str]:
    held = collector.instances
    if type(node) is cst.Name:
        return held.get((id(collector.scope), node.value)) or held.get((id(collector.scopes[0]), node.value))
    key = _key(collector, node)
    return held.get(key) if key is not None else None


def _constructed(collector: Any, value: cst.BaseExpression) -> Optional[str]:
    """The call target of the project class ``value`` is an instance of, where visible:
    a constructor call, through ``.to(device)``-like methods and ``DataParallel``-like
    wrappers, or a name or attribute already holding one."""
    for _ in range(8):
        if type(value) is cst.Call:
            func = value.func
            if type(func) is cst.Attribute and func.attr.value in _KEEPS_INSTANCE:
                value = func.value
                continue
            if collector.qualify(func) in _WRAPPERS and value.args and value.args[0].keyword is None:
                value = value.args[0].value
                continue
            target = collector.call_target(func)
            # a class by its name's case (`Net(...)`), as the fact collector names them
            return target if target is not None and target.rsplit(".", 1)[-1].lstrip(":")[:1].isupper() else None
        return _held(collector, value)
    return None


def note_binding(collector: Any, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
    """An assignment: each plain name or ``self`` attribute target now holds an instance
    of the project class ``value`` builds, or nothing known."""
    made = _constructed(collector, value)
    for target in targets:
        key = _key(collector, target)
        if key is None:
            continue
        if made is not None:
            collector.instances[key] = made
        else:
            collector.instances.pop(key, None)


def forward_target(collector: Any, func: cst.BaseExpression) -> Optional[str]:
    """The call target of ``forward`` for a call of ``func``, where it holds an instance
    of a project class (``model(...)``, ``self.encoder(...)``)."""
    if not collector.instances or not (type(func) is cst.Name or self_attr(func) is not None):
        return None
    made = _held(collector, func)
    return f"{made}.forward" if made is not None else None


def method_target(collector: Any, func: cst.BaseExpression) -> Optional[str]:
    """The call target of a method called on an instance of a project class
    (``self.stft.mel_spectrogram(...)``, ``model.encode(...)``), where the receiver holds
    one: the method runs there, at the call (in a DataLoader worker where the dataset
    calls it, under ``no_grad`` where the caller is)."""
    if not collector.instances or type(func) is not cst.Attribute or func.attr.value.startswith("__"):
        return None
    receiver = func.value
    if not (type(receiver) is cst.Name or self_attr(receiver) is not None):
        return None
    made = _held(collector, receiver)
    return f"{made}.{func.attr.value}" if made is not None else None
