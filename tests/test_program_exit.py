"""An `if` whose block ends the program (`exit()`, `quit()`, `sys.exit(...)`,
`os._exit(...)`, `raise SystemExit`) leaves what follows it to the runs where its test
is false: after `if args.validate is False: exit()`, a default run (no `--validate`)
draws nothing more."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import argparse
import os
import sys
import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--validate", action="store_true")
args = parser.parse_args()
print("accuracy", 0.9)
if TEST:
    END
print(np.random.rand(3))
'''


def lines(test: str, end: str) -> list[int]:
    source = SOURCE.replace("TEST", test).replace("END", end)
    return [d.span.start_line for d in check_source(source, "calibrate.py") if d.code == "RPL101"]


@pytest.mark.parametrize("end", ["exit()", "quit()", "sys.exit(0)", "os._exit(0)", "raise SystemExit(0)"])
@pytest.mark.parametrize("test", ["args.validate is False", "not args.validate", "args.validate == False"])
def test_nothing_after_an_exit_the_default_run_takes_runs(test: str, end: str) -> None:
    assert lines(test, end) == []


@pytest.mark.parametrize("test", ["args.validate", "args.validate is True", "not torch_ok()"])
def test_an_exit_the_default_run_skips_or_may_skip_leaves_what_follows(test: str) -> None:
    assert lines(test, "sys.exit(0)") == [12]


def test_a_block_that_does_not_end_the_program_leaves_what_follows() -> None:
    assert lines("args.validate is False", "print('no validation')") == [12]
