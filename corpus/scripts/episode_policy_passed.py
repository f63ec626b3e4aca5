"""Evaluates a tabular policy on MountainCar: `run_episode` samples random actions only
when it is given no policy, and the program always passes one; the random baseline at
the end passes none, so its samples come from the action space's own generator."""
import gym
import numpy as np


def run_episode(env, policy=None, episode=0):
    obs = env.reset(seed=episode)
    total = 0.0
    for t in range(200):
        if policy is None:
            action = env.action_space.sample()  # expect: RPL102
        else:
            action = int(policy[int(obs[0] * 10) % len(policy)])
        obs, reward, done, truncated, info = env.step(action)
        total += reward
        if done or truncated:
            break
    return total


if __name__ == "__main__":
    env = gym.make("MountainCar-v0")
    solution_policy = np.load("policy.npy")
    scores = [run_episode(env, solution_policy, episode) for episode in range(100)]
    print("policy:", np.mean(scores))
    print("random baseline:", run_episode(env, None, 100))
