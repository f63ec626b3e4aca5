"""An action-space sample read only for its type or shape (`isinstance(env.action_space.
sample(), int)`, `.sample().shape`, the DQN tutorials' shape probe) draws nothing a
result depends on: RPL102 reports the first sample whose value is used, and none when
there is no other. The reset of an environment in a project that declares no gym version
names both moments gym seeds it (a first `reset()` without `seed=` from 0.22 on, the
environment's making before)."""
from __future__ import annotations

from reprolint.api import check_source

PROGRAM = '''import gym
import numpy as np

np.random.seed(1)
env = gym.make("CartPole-v0")
env.seed(1)
SHAPE = 0 if isinstance(env.action_space.sample(), int) else env.action_space.sample().shape
for episode in range(10):
    s = env.reset()
    a = ACTION
    s, r, done, info = env.step(a)
'''


def rpl102(action: str) -> list[int]:
    return [d.span.start_line for d in check_source(PROGRAM.replace("ACTION", action), "dqn.py") if d.code == "RPL102"]


def test_a_sample_read_for_its_shape_only_is_not_reported() -> None:
    assert rpl102("np.random.randint(0, 2)") == []


def test_the_first_sample_whose_value_is_used_is_reported() -> None:
    assert rpl102("env.action_space.sample()") == [10]


def test_an_unseeded_reset_without_a_declared_gym_names_both_ways_to_seed() -> None:
    source = PROGRAM.replace("env.seed(1)\n", "").replace("ACTION", "0")
    found = [d for d in check_source(source, "dqn.py") if d.code == "RPL102"]
    assert [d.span.start_line for d in found] == [8]
    assert "seeded from OS entropy unless the program seeds the environment (`reset(seed=...)`, or " \
           "`env.seed(...)` before gym 0.26)" in found[0].message
