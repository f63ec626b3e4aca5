"""Fact handlers for calls, registered by qualified name, one module per family.

The fact collector (:mod:`reprolint.analysis.usage`) asks :func:`handlers_for` which
handlers know a call's qualified name and runs them; each handler records facts (the
typed events of :mod:`reprolint.analysis.usage_events`), never findings. Adding what a
family knows about a new API is one decorated function in its module::

    @on_call("torch.use_deterministic_algorithms")
    def _deterministic(c: Collector, site: CallSite) -> None:
        ...

Families: :mod:`.flags` (determinism switches), :mod:`.frameworks` (Lightning, Hugging
Face, Accelerate trainers), :mod:`.env` (environment variables, re-exec),
:mod:`.devices` (TF/JAX device selection), :mod:`.order` (samplers, loaders, seeds
taken from the rank), :mod:`.tf_pipelines` (TF input pipelines ordered by thread timing), :mod:`.tf1`
(calls of the TensorFlow 1 API: which TensorFlow a program is written for).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

import libcst as cst

__all__ = ["CallSite", "Handler", "handlers_for", "on_call", "on_call_prefix"]


@dataclass(frozen=True)
class CallSite:
    """A call as the handlers see it."""

    node: cst.Call
    qualname: str
    method: Optional[str]  # ``x.<method>(...)``
    kwargs: dict[str, cst.BaseExpression]


# ``Any`` for the collector: the handlers use its emit helpers (``_u_emit``, ``_u_flag``...).
Handler = Callable[[Any, CallSite], None]

_HANDLERS: dict[str, list[Handler]] = {}
_PREFIX_HANDLERS: list[tuple[str, Handler]] = []


def on_call(*qualnames: str) -> Callable[[Handler], Handler]:
    """Register a handler for calls of these qualified names."""

    def register(handler: Handler) -> Handler:
        for name in qualnames:
            _HANDLERS.setdefault(name, []).append(handler)
        return handler

    return register


def on_call_prefix(*prefixes: str) -> Callable[[Handler], Handler]:
    """Register a handler for calls of every qualified name under these prefixes
    (``tensorflow.contrib.``: a whole removed namespace)."""

    def register(handler: Handler) -> Handler:
        _PREFIX_HANDLERS.extend((prefix, handler) for prefix in prefixes)
        return handler

    return register


def handlers_for(qualname: str) -> list[Handler]:
    if not _LOADED:
        _load()
    found = _HANDLERS.get(qualname, [])
    prefixed = [h for prefix, h in _PREFIX_HANDLERS if qualname.startswith(prefix)]
    return found + prefixed if prefixed else found


_LOADED = False


def _load() -> None:
    # Importing the family modules registers their handlers.
    global _LOADED
    from reprolint.analysis.calls import devices, env, flags, frameworks, order, tf1, tf_pipelines  # noqa: F401

    _LOADED = True
