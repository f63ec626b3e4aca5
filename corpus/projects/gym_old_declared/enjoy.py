"""Plays a trained policy on gym 0.17.3 (declared in requirements.txt), where an
environment seeds its own generator from OS entropy when it is built and `reset()`
takes no seed. The program seeds torch but never calls `env.seed(s)`: every run starts
from other states (RPL102; the message names the declared gym and its API)."""
import gym
import torch

torch.manual_seed(0)
policy = torch.load("policy.pt")
env = gym.make("CartPole-v1")
for episode in range(5):
    obs, done, total = env.reset(), False, 0.0  # expect: RPL102
    while not done:
        action = policy(torch.as_tensor(obs, dtype=torch.float32)).argmax().item()
        obs, reward, done, _ = env.step(action)
        total += reward
    print(episode, total)
