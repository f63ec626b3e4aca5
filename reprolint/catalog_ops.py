"""Moved to :mod:`reprolint.catalog.ops`; this name stays importable (the same module)."""

import sys

from reprolint.catalog import ops as _ops

sys.modules[__name__] = _ops
