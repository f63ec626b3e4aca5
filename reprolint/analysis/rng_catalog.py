"""Moved to :mod:`reprolint.catalog.rng`; this name stays importable (the same module)."""

import sys

from reprolint.catalog import rng as _rng

sys.modules[__name__] = _rng
