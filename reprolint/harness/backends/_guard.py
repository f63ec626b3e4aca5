"""Run a command and stop its process group when the process that started this one dies.

A Ray worker that is killed (a node lost, `ray.cancel(force=True)`, the OOM killer)
cannot stop the training command it started, because the command runs in a process
group of its own. This guard sits between the two: it starts the command in its own
group, passes on its exit status, and kills the group when its parent goes away.

Started as `python -S _guard.py PARENT_PID -- COMMAND...`:
`-S` keeps the injected sitecustomize out of the guard itself, so the guard is never
traced; it uses the standard library only.
"""

import os
import signal
import subprocess
import sys
import time


def main(argv):
    parent = int(argv[0])
    command = argv[argv.index("--") + 1:]
    try:
        child = subprocess.Popen(command)
    except OSError as exc:
        sys.stderr.write(f"reprolint: cannot run {command[0]!r}: {exc}\n")
        return 127

    # The harness signals the whole group, the command included: the guard only waits
    # for the command to go. (A Python handler, not SIG_IGN, which the command would inherit.)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: None)
    while True:
        try:
            code = child.wait(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            pass
        if os.getppid() != parent:  # orphaned: the Ray worker is gone
            try:
                os.killpg(0, signal.SIGKILL)  # this group: the command and the guard
            except ProcessLookupError:
                pass
            return 137
    if code < 0:  # die of the same signal, so that the harness sees what it would locally
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        time.sleep(1.0)
        return 128 - code
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
