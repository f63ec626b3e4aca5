"""Random exploration on gym 0.15 (declared): each space has its own generator, seeded from
OS entropy; seeding the environment does not seed it."""
import gym
import numpy as np

np.random.seed(0)
env = gym.make("CartPole-v0")
env.seed(0)
obs = env.reset()
returns = []
for step in range(100):
    obs, reward, done, info = env.step(env.action_space.sample())  # expect: RPL102
    returns.append(reward)
    if done:
        obs = env.reset()
np.save("returns.npy", np.array(returns))
