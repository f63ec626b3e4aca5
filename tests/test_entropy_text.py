"""Text made from an entropy source is no seed: a log folder named after the time
(`"/tmp/experiments/%i" % int(time.time())`) given to a seeding helper for its logger
does not seed it from the time (RPL103, judged on spinningup's exercises). A number
made of that text again still is."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import time
import random
import numpy as np


def run(seed=0, logger_kwargs=None):
    random.seed(seed)
    np.random.seed(seed)
    print(np.random.rand(), logger_kwargs)


CALL
'''


@pytest.mark.parametrize("call", [
    'logdir = "/tmp/experiments/%i" % int(time.time())\nrun(logger_kwargs=dict(output_dir=logdir))',
    'run(logger_kwargs={"output_dir": f"/tmp/experiments/{time.time()}"})',
    'run(logger_kwargs=dict(output_dir="/tmp/{}".format(time.time())))',
])
def test_a_time_stamped_name_is_no_seed(call: str) -> None:
    assert [d for d in check_source(SOURCE.replace("CALL", call), "run.py") if d.code == "RPL103"] == []


@pytest.mark.parametrize("call", [
    'run(seed=int(time.time()))',
    'run(seed=int(str(time.time()).replace(".", "")[-6:]))',
    'run(seed=int(f"{time.time():.0f}"))',
])
def test_a_number_made_of_the_time_is_a_seed_from_it(call: str) -> None:
    found = [d for d in check_source(SOURCE.replace("CALL", call), "run.py") if d.code == "RPL103"]
    assert [(d.span.start_line, "from `time.time()`" in d.message) for d in found] == [(12, True)]
