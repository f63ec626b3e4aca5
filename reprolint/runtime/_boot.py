"""What `reprolint verify`'s injected `sitecustomize` runs in every Python process.

Reads the environment the harness set:

* `REPROLINT_TRACE_DIR`: start tracing into that folder.
* `REPROLINT_INSTALL=1`: also `install()` (mode from `REPROLINT_MODE`, record from
  `REPROLINT_RECORD`), for `verify --replay`.
"""

from __future__ import annotations

import os


def start() -> None:
    """Set up tracing and, if asked, record/replay for this process."""
    # The first Python process of the command is "main" in the trace; its children
    # (launchers' workers, subprocesses) inherit this and name themselves otherwise.
    os.environ.setdefault("REPROLINT_ROOT_PID", str(os.getpid()))
    directory = os.environ.get("REPROLINT_TRACE_DIR")
    if directory:
        from reprolint.runtime import _trace

        _trace.enable(directory)
    if os.environ.get("REPROLINT_INSTALL") == "1":
        from reprolint.runtime._session import install

        deterministic = os.environ.get("REPROLINT_DETERMINISTIC", "1") != "0"
        install(deterministic=deterministic, _from_harness=True)
