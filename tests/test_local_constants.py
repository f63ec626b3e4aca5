"""A name a function binds once, to a literal (a parameter overwritten at the top:
`option = 0`), is that constant in the function's later tests: a branch it rules out
does not run. A name bound again (`n += 1` in a loop, a second assignment, a loop
target) is not a constant."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import random


def visualize(option):
    BINDING
    if option == 2:
        print(random.randint(0, 10))


visualize(2)
'''


def draws(binding: str) -> list[int]:
    return [d.span.start_line for d in check_source(SOURCE.replace("BINDING", binding), "show.py") if d.code == "RPL101"]


def draw_line(binding: str) -> int:
    return SOURCE.replace("BINDING", binding).splitlines().index("        print(random.randint(0, 10))") + 1


def test_a_parameter_overwritten_with_a_literal_rules_out_a_branch() -> None:
    assert draws("option = 0") == []


@pytest.mark.parametrize("binding", [
    "pass",  # the call passes 2
    "option = 0\n    option += 2",
    "option = 0\n    for option in range(3):\n        pass",
    "if option > 1:\n        option = 0",
])
def test_a_name_bound_more_than_once_or_conditionally_is_no_constant(binding: str) -> None:
    assert draws(binding) == [draw_line(binding)]
