"""Run a callback right after a module is imported, without importing it ourselves.

The runtime must seed torch, patch NumPy's constructors and register optimizer hooks in
programs that import those libraries *after* `install()` ran (always the case under
`reprolint verify`, where `install()` runs from `sitecustomize` before the program
starts). Importing them eagerly would cost seconds and break programs that do not use
them, so a meta-path finder wraps the loader of the watched modules instead.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
import warnings
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence

Callback = Callable[[ModuleType], None]

_lock = threading.RLock()
_pending: Dict[str, List[Callback]] = {}


def when_imported(name: str, callback: Callback) -> None:
    """Call `callback(module)` once `name` is imported; at once if it already is."""
    with _lock:
        module = sys.modules.get(name)
        if module is None:
            _pending.setdefault(name, []).append(callback)
            _ensure_finder()
            return
    _call(name, callback, module)


def _call(name: str, callback: Callback, module: ModuleType) -> None:
    try:
        callback(module)
    except Exception as exc:  # a hook must never break the user's import
        warnings.warn(
            f"reprolint: could not prepare `{name}` for record/replay or tracing: {exc!r}",
            RuntimeWarning,
            stacklevel=3,
        )


def _fire(name: str, module: ModuleType) -> None:
    with _lock:
        callbacks = _pending.pop(name, [])
    for callback in callbacks:
        _call(name, callback, module)


class _NotifyingLoader(importlib.abc.Loader):
    """Delegates to the real loader and fires the callbacks after the module ran."""

    def __init__(self, loader: Any, name: str) -> None:
        self._loader = loader
        self._name = name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[ModuleType]:
        return self._loader.create_module(spec)  # type: ignore[no-any-return]

    def exec_module(self, module: ModuleType) -> None:
        # Put the real loader back first, so that the module looks untouched to anything
        # that introspects it (inspect.getsource, importlib.resources, pickling).
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        _fire(self._name, module)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._loader, attr)


class _PostImportFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self,
        fullname: str,
        path: Optional[Sequence[str]],
        target: Optional[ModuleType] = None,
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname not in _pending:
            return None
        for finder in list(sys.meta_path):
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec  # namespace package or legacy loader: nothing we can wrap
        spec.loader = _NotifyingLoader(spec.loader, fullname)
        return spec


_finder = _PostImportFinder()


def _ensure_finder() -> None:
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
