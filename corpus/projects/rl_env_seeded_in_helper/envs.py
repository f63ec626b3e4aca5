"""Environment construction, seeded here (gym < 0.26 style: `env.seed(s)`)."""
import gym


def make_env(name, seed):
    env = gym.make(name)
    env.seed(seed)
    env.action_space.seed(seed)
    return env
