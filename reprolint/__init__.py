"""reprolint: find, fix and verify why two identical training runs differ.

Importing this package never imports torch, NumPy or TensorFlow.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
