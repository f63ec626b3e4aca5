"""Per-site rules report what runs (issue 26): an environment's unseeded sample (RPL102)
or a set's order (RPL401) on a branch that every program reaching it skips with the
default options is not reported; the first site of the cause that runs is, with the
entry points of the programs that run it."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

ENV = '''import argparse
import gymnasium as gym

parser = argparse.ArgumentParser()
parser.add_argument("--random-agent", action="store_true")
args = parser.parse_args()
env = gym.make("CartPole-v1")
obs, _ = env.reset(seed=0)
for step in range(100):
    if args.random_agent:
        action = env.action_space.sample()
    else:
        action = 0
    obs, reward, done, trunc, _ = env.step(action)
{tail}'''


def _found(tmp_path: Path, source: str, code: str) -> list:
    (tmp_path / "train.py").write_text(source)
    return [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == code]


def test_a_sample_only_an_off_option_runs_is_not_reported(tmp_path: Path) -> None:
    assert _found(tmp_path, ENV.format(tail=""), "RPL102") == []


def test_the_first_sample_that_runs_is_reported(tmp_path: Path) -> None:
    found = _found(tmp_path, ENV.format(tail="    print(env.action_space.sample())\n"), "RPL102")
    assert [(d.span.start_line, d.entry_points) for d in found] == [(15, (str(tmp_path / "train.py"),))]


def test_a_sample_in_a_module_no_program_runs_is_still_reported(tmp_path: Path) -> None:
    # library code (that seeds something else, so its runs are meant to repeat): no
    # program decides its branches
    source = (
        "import random\n\nimport gymnasium as gym\n\n\ndef set_seed(s):\n    random.seed(s)\n\n\n"
        "def act(env, explore):\n    if explore:\n        return env.action_space.sample()\n    return 0\n"
    )
    (tmp_path / "agent.py").write_text(source)
    found = [d for d in check_paths([str(tmp_path)], jobs=1).diagnostics if d.code == "RPL102"]
    assert [(d.span.start_line, d.entry_points) for d in found] == [(12, ())]


SETS = '''import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--export", {action})
args = parser.parse_args()
labels = set(open("labels.txt").read().split())
if args.export:
    print(list(labels))
'''


def test_a_set_order_an_off_option_takes_is_not_reported(tmp_path: Path) -> None:
    assert _found(tmp_path, SETS.format(action='action="store_true"'), "RPL401") == []


def test_a_set_order_the_default_run_takes_is_reported(tmp_path: Path) -> None:
    found = _found(tmp_path, SETS.format(action='action="store_false"'), "RPL401")
    assert [(d.span.start_line, d.entry_points) for d in found] == [(8, (str(tmp_path / "train.py"),))]
