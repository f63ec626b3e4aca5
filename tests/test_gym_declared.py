"""RPL102 on an environment reset says what the declared gym does: before 0.22 an
environment seeds itself from OS entropy when it is built and `reset()` takes no seed."""
from __future__ import annotations

from pathlib import Path

import pytest

from reprolint.api import check_paths

PROGRAM = (
    "import gym\nimport torch\n\ntorch.manual_seed(0)\nenv = gym.make('CartPole-v1')\n"
    "obs = env.reset()\nprint(obs)\n"
)


@pytest.mark.parametrize(("requirement", "expected"), [
    ("gym==0.15.4", "which gym 0.15.4 (declared in requirements.txt as `gym==0.15.4`) seeds from OS entropy"),
    ("gym>=0.17,<0.20", "which gym 0.19.0 (declared in requirements.txt as `gym>=0.17,<0.20`) seeds from OS entropy"),
    ("gym==0.26.2", "`env.reset()` without `seed=` seeds the environment's own generator"),
    ("numpy", "`env.reset()` without `seed=` seeds the environment's own generator"),
])
def test_the_message_follows_the_declared_gym(tmp_path: Path, requirement: str, expected: str) -> None:
    (tmp_path / "requirements.txt").write_text(requirement + "\n")
    (tmp_path / "play.py").write_text(PROGRAM)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL102"]
    assert [d.span.start_line for d in found] == [6]
    assert expected in found[0].message


def test_gymnasium_keeps_the_reset_seed_message(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("gym==0.15.4\ngymnasium\n")
    (tmp_path / "play.py").write_text(PROGRAM.replace("import gym\n", "import gymnasium as gym\n"))
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL102"]
    assert len(found) == 1 and "without `seed=`" in found[0].message
