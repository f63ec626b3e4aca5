"""An Atari wrapper: `explore` is how the agent acts at random while it learns;
`random_action` is a leftover that no code calls, so it runs for no program."""
import gym


class AtariEnvironment(object):
    def __init__(self, name):
        self.env = gym.make(name)
        self.action_space = self.env.action_space

    def random_action(self):
        return self.action_space.sample()

    def explore(self):
        return self.action_space.sample()  # expect: RPL102

    def reset(self, seed):
        return self.env.reset(seed=seed)

    def step(self, action):
        return self.env.step(action)
