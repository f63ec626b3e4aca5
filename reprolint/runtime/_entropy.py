"""The recorded stream of seeds handed to entropy-seeded constructors.

Every value is derived from the master seed and a *key* naming the draw
(`api@site#occurrence`), not from a shared counter: a draw made in another thread or a
DataLoader worker cannot shift the values of the others, and a fixed master seed alone
already makes the program deterministic. Record mode writes each draw (in order) to the
record; replay feeds the recorded value back by key and warns about draws the record
does not hold.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
import threading
from typing import Callable, Dict, List, Optional

from reprolint.runtime._record import Draw

RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))
STDLIB_DIRS = tuple(
    os.path.abspath(p) + os.sep
    for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
)
SITE_DIRS = tuple(
    os.path.abspath(p) + os.sep
    for p in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
)


def derive(master: int, key: str, bits: int) -> int:
    """A `bits`-bit seed for `key`, a pure function of the master seed."""
    digest = hashlib.sha256(f"{master}:{key}".encode()).digest()
    return int.from_bytes(digest, "big") >> (256 - bits)


class EntropyStream:
    """Hands out seeds for draws; records them or replays them from a record."""

    def __init__(
        self,
        master: int,
        replayed: Optional[List[Draw]] = None,
        on_draw: Optional[Callable[[Draw], None]] = None,
        on_missing: Optional[Callable[[str], None]] = None,
    ) -> None:
        self.master = master
        self.draws: List[Draw] = []
        self._replayed = {d.key: d.value for d in replayed or []}
        self._counts: Dict[str, int] = {}
        self._lock = threading.Lock()
        self._on_draw = on_draw
        self._on_missing = on_missing
        self._pid = os.getpid()

    def draw(self, api: str, site: str, bits: int) -> int:
        """The seed for the next call of `api` at `site` (a `file:line` or a site id)."""
        prefix = _process_prefix(self._pid)
        with self._lock:
            base = f"{prefix}{api}@{site}"
            occurrence = self._counts.get(base, 0)
            self._counts[base] = occurrence + 1
            key = f"{base}#{occurrence}"
            value = self._replayed.get(key)
            # Workers and other child processes never write the record, so their keys
            # are absent by design: they get the same derived value every run anyway.
            owner = os.getpid() == self._pid and "worker" not in prefix
            missing = bool(self._replayed) and value is None and owner
            if value is None:
                value = derive(self.master, key, bits)
            else:
                value %= 1 << bits
            draw = Draw(index=len(self.draws), api=api, site=site, key=key, value=value)
            self.draws.append(draw)
        if missing and self._on_missing is not None:
            self._on_missing(key)
        if self._on_draw is not None and os.getpid() == self._pid:
            self._on_draw(draw)
        return value


def _process_prefix(owner_pid: int) -> str:
    """Keys of draws made outside the main process of a single-process program.

    DataLoader workers use torch's per-worker seed (different per worker and per epoch,
    and deterministic once torch is seeded), or every worker of every epoch would get
    the same seeds. Distributed ranks use their rank, as their unseeded draws differed.
    """
    prefix = ""
    rank = os.environ.get("RANK")
    if rank is not None and os.environ.get("WORLD_SIZE", "1") != "1":
        prefix = f"rank{rank}/"
    data = sys.modules.get("torch.utils.data")
    info = data.get_worker_info() if data is not None else None
    if info is not None:
        return f"{prefix}worker{info.id}-{info.seed}/"
    if os.getpid() != owner_pid:
        return f"{prefix}child/"
    return prefix


def caller_site(skip_files: tuple = ()) -> Optional[str]:
    """`file:line` of the code that called the patched API, or None for stdlib callers.

    Frames inside the runtime and inside `skip_files` (the patched library's own module,
    e.g. random.py when `random.Random()` calls `self.seed()`) are skipped. The standard
    library uses `random.Random()` for temp-file names, where uniqueness matters and
    determinism would make concurrent processes collide, so those calls are left alone.
    """
    frame = sys._getframe(1)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(RUNTIME_DIR) and filename not in skip_files:
            break
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "<unknown>"
    if filename.startswith(STDLIB_DIRS) and not filename.startswith(SITE_DIRS):
        return None
    try:
        shown = os.path.relpath(filename)
    except ValueError:  # another drive on Windows
        shown = filename
    if shown.startswith(".."):
        shown = filename
    return f"{shown}:{frame.f_lineno}"
