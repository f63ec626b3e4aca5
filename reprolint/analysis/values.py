"""The values facts hold besides literals: the one ``UNKNOWN`` marker and option references.

Both are plain data so facts can be cached as JSON (see :mod:`reprolint.cache_codec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

__all__ = ["UNKNOWN", "ConfigKey", "OptionRef"]

UNKNOWN = "<unknown>"  # a value the analysis cannot know statically


@dataclass(frozen=True)
class OptionRef:
    """A value taken from a command-line option (``args.<name>``, or ``not args.<name>``),
    decided per program by the option's default; or, as ``("selfattr", path, class,
    attr)``, an attribute a constructor stores (``self.mode``: what the calls pass)."""

    name: Union[str, tuple[str, ...]]
    negated: bool = False


@dataclass(frozen=True)
class ConfigKey:
    """A keyword that a spread configuration mapping gives a call (``Trainer(**cfg["trainer"])``):
    decided per program by the configuration files it reads on a default run, where a
    key they do not hold leaves the callee's default."""

    name: str
