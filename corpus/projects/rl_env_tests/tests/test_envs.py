"""Look-alike of scripts/rl_gym_env_unseeded.py in a pytest module: the environment is a
fixture of a test, not a run whose results someone reproduces (not reported unless
include-tests)."""
import gymnasium as gym
import numpy as np


def test_step_shapes():
    np.random.seed(0)
    env = gym.make("CartPole-v1")
    obs, _ = env.reset()
    action = env.action_space.sample()
    obs, reward, terminated, truncated, _ = env.step(action)
    assert obs.shape == (4,)
