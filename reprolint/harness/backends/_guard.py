"""Run a command and stop its process group when the Ray worker that started it dies.

A Ray worker that dies (a node lost, `ray.cancel(force=True)`, the OOM killer) cannot
stop the training command it started, because the command runs in a process group of
its own; and Ray SIGKILLs the worker's direct children with it. So the guard, the
worker's child, starts two processes in the command's group: the command, and a keeper
that watches the guard. When the guard goes (killed with the worker, or orphaned), the
keeper kills the group: the command and everything it started.

Started as `python -S _guard.py PARENT_PID -- COMMAND...`: `-S` keeps the injected
sitecustomize out of the guard and the keeper, so neither is ever traced; they use the
standard library only. The guard exits as the command did (dying of the same signal).
"""

import os
import signal
import subprocess
import sys
import time

_POLL = 0.5


def _kill_group():
    try:
        os.killpg(0, signal.SIGKILL)  # this group: the command, its children, the keeper
    except ProcessLookupError:
        pass


def keeper(guard):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # the keeper execs nothing: nothing inherits this
    while os.getppid() == guard:
        time.sleep(_POLL)
    _kill_group()
    return 137


def main(argv):
    if argv[0] == "--keeper":
        return keeper(int(argv[1]))
    parent = int(argv[0])
    command = argv[argv.index("--") + 1:]
    watcher = subprocess.Popen([sys.executable, "-S", os.path.abspath(__file__), "--keeper", str(os.getpid())])
    try:
        child = subprocess.Popen(command)
    except OSError as exc:
        watcher.kill()
        sys.stderr.write(f"reprolint: cannot run {command[0]!r}: {exc}\n")
        return 127
    # The harness signals the whole group, the command included: the guard only waits
    # for the command to go. (A Python handler, not SIG_IGN, which the command would inherit.)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: None)
    while True:
        try:
            code = child.wait(timeout=_POLL)
            break
        except subprocess.TimeoutExpired:
            pass
        if os.getppid() != parent:  # orphaned: the Ray worker is gone
            _kill_group()
            return 137
    watcher.kill()
    watcher.wait()
    if code < 0:  # die of the same signal, so that the harness sees what it would locally
        if -code not in (signal.SIGKILL, signal.SIGSTOP):  # those two cannot be caught anyway
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        time.sleep(1.0)
        return 128 - code
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
