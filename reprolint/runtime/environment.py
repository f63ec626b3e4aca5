"""The `REPROLINT_*` environment contract between the harness and the runtime.

`reprolint verify`, `profile` and `variance` (the harness) start the program with these
variables set; the injected `sitecustomize`, `reprolint.runtime` and the op recorder
read them in the program's processes. Both sides import the names from here, so that
neither can rename one alone. Importing this module imports nothing else.
"""

from __future__ import annotations

# -- set by the harness for the program -------------------------------------------------
TRACE_DIR = "REPROLINT_TRACE_DIR"  # trace every optimizer step into this folder
HOME = "REPROLINT_HOME"  # the reprolint package's folder, for a program run by another Python
INSTALL = "REPROLINT_INSTALL"  # "1": install() from sitecustomize (verify --replay, variance)
DETERMINISTIC = "REPROLINT_DETERMINISTIC"  # "0": install() leaves the determinism flags off
RUN_TOKEN = "REPROLINT_RUN_TOKEN"  # marks every process of one run, to stop them all
PROFILE_OUT = "REPROLINT_PROFILE_OUT"  # profile: write the op record here
PROFILE_STEPS = "REPROLINT_PROFILE_STEPS"  # profile: stop after this many optimizer steps
PROFILE_CAPTURE = "REPROLINT_PROFILE_CAPTURE"  # profile: record the stack at this op index
PROFILE_CAPTURE_BACKWARD = "REPROLINT_PROFILE_CAPTURE_BACKWARD"  # "1": the op is a backward op
# verify --diagnose: the one source of variance a run holds fixed (see harness/diagnose.py)
LIBRARIES = "REPROLINT_LIBRARIES"  # install() from sitecustomize seeds only these (comma list)
CONTROLS = "REPROLINT_CONTROLS"  # comma list: workers0, threads1, deterministic, cudnn

# -- read by install() (also set by users) ----------------------------------------------
MODE = "REPROLINT_MODE"  # record | replay | off
SEED = "REPROLINT_SEED"  # the master seed in record mode
RECORD = "REPROLINT_RECORD"  # the record file

# -- set by the runtime for its own child processes ------------------------------------
ROOT_PID = "REPROLINT_ROOT_PID"  # the first traced process: its trace is "main"
SESSION = "REPROLINT_SESSION"  # "pid:master:mode:rank:record" of the parent's install()

# What a harness clears from its own environment before it sets a child's: a verify run
# inside a traced program must not inherit its parent's session.
HARNESS_SET = (
    TRACE_DIR, ROOT_PID, SESSION, INSTALL, MODE, RECORD, RUN_TOKEN,
    PROFILE_OUT, PROFILE_STEPS, PROFILE_CAPTURE, PROFILE_CAPTURE_BACKWARD, LIBRARIES, CONTROLS,
)
