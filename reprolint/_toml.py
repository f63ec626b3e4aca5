"""The TOML reader: stdlib ``tomllib`` on 3.11+, ``tomli`` before."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on old Pythons only
    import tomli as tomllib

loads = tomllib.loads
TOMLDecodeError = tomllib.TOMLDecodeError

__all__ = ["TOMLDecodeError", "loads"]
