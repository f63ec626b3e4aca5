"""Options a class stores on `self` in `__init__` (`self.augment = augment`) decide the
branches of its methods (`if self.augment:`) as the constructor's calls pass them: a draw
behind an option every call turns off does not run. The right side of `and`/`or` runs
only when the left side lets it."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

PROGRAM = '''import random
import torch


class Pipeline:
    def __init__(self, files, augment=True, jitter=0.0):
        self.files = files
        self.augment = augment
        self.jitter = jitter
        ASSIGN

    def load(self, i):
        x = torch.load(self.files[i])
        if self.augment:
            x = x + random.random()
        return x * (1 + self.jitter * random.random()) if self.jitter > 0 else x


torch.manual_seed(0)
CALLS
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(4):
    loss = model(data.load(i)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


AUGMENT, JITTER = "x = x + random.random()", "return x * (1 + self.jitter * random.random())"


def draws(calls: str, assign: str = "pass", source: str = "") -> list[str]:
    """The statements (stripped, up to their first draw) of the RPL101 findings."""
    source = source or PROGRAM.replace("CALLS", calls).replace("ASSIGN", assign)
    lines = source.splitlines()
    found = sorted(d.span.start_line for d in check_source(source, "train.py") if d.code == "RPL101")
    return [next(s for s in (AUGMENT, JITTER) if lines[n - 1].strip().startswith(s)) for n in found]


@pytest.mark.parametrize(("calls", "lines"), [
    ("data = Pipeline(['a.pt'], augment=False)", []),
    ("data = Pipeline(['a.pt'], False, 0.0)", []),  # by place
    ("data = Pipeline(['a.pt'])", [AUGMENT]),  # the default: augment on
    ("data = Pipeline(['a.pt'], augment=False, jitter=0.1)", [JITTER]),
    ("data = Pipeline(['a.pt'], augment=False)\nval = Pipeline(['b.pt'], augment=True)", [AUGMENT]),  # calls differ
    ("data = Pipeline(['a.pt'], **{'augment': False})", [AUGMENT]),  # a spread: not known
])
def test_a_method_branch_on_a_stored_option_follows_the_constructor_calls(calls: str, lines: list) -> None:
    assert draws(calls) == lines


@pytest.mark.parametrize("assign", [
    "self.augment = not augment",  # stored twice: not the parameter any more
    "if files:\n            self.augment = True",
])
def test_an_attribute_assigned_again_is_not_read_as_the_parameter(assign: str) -> None:
    assert draws("data = Pipeline(['a.pt'], augment=False)", assign) == [AUGMENT]


def test_an_option_stored_later_in_another_method_is_unknown() -> None:
    source = PROGRAM.replace("ASSIGN", "pass").replace(
        "    def load(self, i):", "    def enable(self):\n        self.augment = True\n\n    def load(self, i):"
    ).replace("CALLS", "data = Pipeline(['a.pt'], augment=False)")
    assert draws("", source=source) == [AUGMENT]


@pytest.mark.parametrize(("expression", "reported"), [
    ("flag and random.random()", False),
    ("flag or random.random()", True),
    ("(not flag) and random.random()", True),
    ("flag is not None and random.random()", False),
])
def test_the_right_side_of_and_or_runs_under_the_left(expression: str, reported: bool) -> None:
    source = f"import random\nflag = None\nx = {expression}\nprint(x)\n"
    found = [d.code for d in check_source(source, "run.py") if d.code == "RPL101"]
    assert found == (["RPL101"] if reported else [])
