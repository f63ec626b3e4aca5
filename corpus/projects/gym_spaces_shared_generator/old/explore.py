"""Random exploration on gym 0.10 (declared): every space samples from one RandomState
that gym seeds with 0 when imported, so the random actions are the same on every run."""
import gym
import numpy as np

np.random.seed(0)
env = gym.make("CartPole-v0")
env.seed(0)
obs = env.reset()
returns = []
for step in range(100):
    obs, reward, done, info = env.step(env.action_space.sample())
    returns.append(reward)
    if done:
        obs = env.reset()
np.save("returns.npy", np.array(returns))
