"""What `reprolint verify`'s injected `sitecustomize` runs in every Python process.

Reads the environment the harness set:

* `REPROLINT_TRACE_DIR`: start tracing into that folder.
* `REPROLINT_INSTALL=1`: also `install()` (mode from `REPROLINT_MODE`, record from
  `REPROLINT_RECORD`), for `verify --replay`; `REPROLINT_LIBRARIES` limits the seeding
  to those libraries (`verify --diagnose`).
* `REPROLINT_CONTROLS`: the controls of `verify --diagnose` (`workers0`: every
  DataLoader gets `num_workers=0`; `threads1`: `torch.set_num_threads(1)`;
  `deterministic`: `torch.use_deterministic_algorithms(True, warn_only=True)`; `cudnn`:
  cuDNN deterministic, no benchmark).
"""

from __future__ import annotations

import os

from reprolint.runtime import environment as env


def start() -> None:
    """Set up tracing and, if asked, record/replay for this process."""
    # The first Python process of the command is "main" in the trace; its children
    # (launchers' workers, subprocesses) inherit this and name themselves otherwise.
    os.environ.setdefault(env.ROOT_PID, str(os.getpid()))
    directory = os.environ.get(env.TRACE_DIR)
    if directory:
        from reprolint.runtime import _trace

        _trace.enable(directory)
    if os.environ.get(env.INSTALL) == "1":
        from reprolint.runtime._session import install

        deterministic = os.environ.get(env.DETERMINISTIC, "1") != "0"
        install(deterministic=deterministic, _from_harness=True)
    controls = [c for c in os.environ.get(env.CONTROLS, "").split(",") if c]
    if controls:
        from reprolint.runtime import _controls

        _controls.apply(controls)
