"""Environment factories whose environments seed their own spaces: dmc2gym's wrapper seeds
its action and observation spaces when it is built (`seed=`, 1 by default), where gym's
`env.seed(s)` seeds the environment only (gym issue 681)."""
from __future__ import annotations

import pytest

from reprolint.api import check_sources


@pytest.mark.parametrize("make, expected", [
    ("env = dmc2gym.make(domain_name='cheetah', task_name='run', seed=1)", []),
    ("env = gym.make('HalfCheetah-v2')\nenv.seed(1)", [("warmup.py", 8)]),  # gym issue 681
])
def test_dmc2gym_environments_seed_their_action_space(make: str, expected: list) -> None:
    source = (
        "import dmc2gym\nimport gym\nimport numpy as np\n\n" + make + "\nfor step in range(10):\n"
        "    action = env.action_space.sample()\n    env.step(action)\n"
    )
    lines = [(d.path, d.span.start_line) for d in check_sources({"warmup.py": source}) if d.code == "RPL102"]
    assert lines == expected
