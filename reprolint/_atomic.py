"""Atomic file writes, shared by the linter's cache and the runtime's record file.

Standard library only: the runtime imports it inside the user's training process.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(target: Path, data: bytes, prefix: str = ".tmp-", suffix: str = "") -> None:
    """Write ``data`` to ``target`` through a temporary file in the same folder and a
    rename, so a reader never sees half a file and a crash (Ctrl-C included) leaves no
    temporary file behind."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=str(target.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
