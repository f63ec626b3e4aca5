"""Defer importing libcst until a file actually has to be parsed.

``import libcst`` costs about 0.25 s (it builds a few hundred node dataclasses), more
than everything else a warm ``reprolint check`` does. The fact types live in modules
that say ``import libcst as cst`` at the top but touch ``cst`` only inside functions,
so ``sys.modules["libcst"]`` can be a stand-in: the first attribute looked up on it
(the first parse) imports the real libcst and copies its namespace into the stand-in,
after which lookups are ordinary module-dict lookups, as fast as before. A run that
finds every file in the cache never imports libcst.

(:class:`importlib.util.LazyLoader` is not enough: on Python 3.11 the ``import``
statement itself reads ``__spec__`` from the module, which triggers its load.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

__all__ = ["defer_libcst"]


class _Deferred(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        # Only called for names missing from the stand-in's own dict.
        real = self.__dict__.get("_reprolint_real")
        if real is not None:
            return getattr(real, name)  # e.g. a submodule imported after the load
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if sys.modules.get("libcst") is self:
            del sys.modules["libcst"]
        try:
            real = importlib.import_module("libcst")
        except BaseException:
            sys.modules.setdefault("libcst", self)
            raise
        # Submodules imported through the stand-in (`import libcst.x` before the load)
        # were bound on it, not on the real package: bind them there too.
        for key, value in list(self.__dict__.items()):
            if isinstance(value, types.ModuleType):
                real.__dict__.setdefault(key, value)
        self.__dict__.update(real.__dict__)
        self.__dict__["_reprolint_real"] = real
        return getattr(real, name)


def defer_libcst() -> None:
    """Put a stand-in for libcst in ``sys.modules`` unless libcst is already imported."""
    if "libcst" in sys.modules:
        return
    spec = importlib.util.find_spec("libcst")
    if spec is None:
        return
    stand_in = _Deferred("libcst")
    stand_in.__spec__ = spec
    stand_in.__file__ = spec.origin
    stand_in.__path__ = list(spec.submodule_search_locations or [])
    stand_in.__package__ = "libcst"
    sys.modules["libcst"] = stand_in
