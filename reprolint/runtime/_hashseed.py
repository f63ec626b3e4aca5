"""Pinning ``PYTHONHASHSEED`` for a program whose results depend on str hash order.

The hash seed is read once, when the interpreter starts: setting the variable inside the
process is too late. So ``install()``, called at the top level of the program's main
module, re-executes the interpreter once, with the same command line and
``PYTHONHASHSEED=0``, when the variable is unset and ``reprolint check`` finds that the
program takes an order from a set of strings (RPL401/RPL307). What ran before
``install()`` runs again in the new process (imports, argument parsing): the process id
stays the same (``os.execve``), so launchers that watch it (``torchrun``) see one
process. A program read from stdin cannot be started again: it is told what to set.

Opt out with ``install(hash_seed=False)`` or ``REPROLINT_HASH_SEED=off``.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType
from typing import List, Optional

from reprolint.runtime import _determinism

__all__ = ["PINNED", "maybe_reexec"]

PINNED = "0"  # the value the re-executed interpreter gets
_MARK = "REPROLINT_HASH_SEED_REEXEC"  # set in the re-executed process: never twice


def _command() -> Optional[List[str]]:
    """The interpreter's own command line (options, ``-m mod``, script, arguments), or
    None where it cannot be started again (stdin, an interactive session, ``-c``)."""
    argv = list(getattr(sys, "orig_argv", []) or [])
    if len(argv) < 2 or not sys.executable:
        return None
    if not sys.argv or sys.argv[0] in ("", "-"):
        return None  # the program came from stdin (or an interactive prompt)
    if sys.argv[0] == "-c":
        return None
    return [sys.executable, *argv[1:]]


def opted_out(argument: bool) -> bool:
    return not argument or os.environ.get("REPROLINT_HASH_SEED", "").lower() in ("off", "0", "no", "false")


def maybe_reexec(caller: Optional[FrameType], argument: bool = True) -> None:
    """Re-execute the program with ``PYTHONHASHSEED`` pinned when it depends on str hash
    order and nothing set the variable (``install()``'s first step)."""
    if opted_out(argument) or not _determinism.hash_seed_unset() or os.environ.get(_MARK):
        return
    if caller is None or caller.f_globals.get("__name__") != "__main__" or caller.f_code.co_name != "<module>":
        return  # only from the main module's top level: never a library, a test, a worker
    command = _command()
    script = _determinism.main_script()
    if command is None or script is None:
        if not sys.argv or sys.argv[0] in ("", "-"):
            warnings.warn(
                "reprolint: PYTHONHASHSEED is not set and the program was read from stdin, "
                "so install() cannot start it again with a fixed hash seed; if it takes an "
                "order from a set of strings, set the variable where Python is started: "
                "PYTHONHASHSEED=0 python - < script.py",
                _determinism.DeterminismWarning,
                stacklevel=3,
            )
        return
    if _determinism.hash_order_site(script) is None:
        return  # nothing in the program depends on str hash order: no restart
    env = dict(os.environ, PYTHONHASHSEED=PINNED, **{_MARK: "1"})
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed stream must not stop the restart
            pass
    os.execve(command[0], command, env)
