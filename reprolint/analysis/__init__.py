"""Static analysis: per-module facts and the program model."""

# The fact modules `import libcst` at the top but use it only when parsing: register the
# deferred stand-in first, so importing them (a run served from the cache, the rules)
# does not pay libcst's 0.25 s import (see reprolint/_lazy.py).
from reprolint._lazy import defer_libcst as _defer_libcst

_defer_libcst()
