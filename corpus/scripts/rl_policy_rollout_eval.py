"""Evaluates a trained policy: loads its weights, then plays episodes, sampling each
action from the policy's categorical distribution and adding Gaussian exploration noise
to the continuous head. Both samples draw from torch's global RNG, which the script never
seeds, so the reported return differs per run. The curriculum's `sample()` is a method
of the script's own class and draws nothing."""
import gymnasium as gym
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal


class Policy(nn.Module):
    def __init__(self, obs=4, actions=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 64), nn.Tanh())
        self.logits = nn.Linear(64, actions)
        self.mu = nn.Linear(64, 1)

    def forward(self, x):
        h = self.body(x)
        return self.logits(h), self.mu(h)


class Curriculum:
    def __init__(self, levels):
        self.levels = levels
        self.step = 0

    def sample(self):
        self.step += 1
        return self.levels[min(self.step // 10, len(self.levels) - 1)]


@torch.no_grad()
def main():
    policy = Policy()
    policy.load_state_dict(torch.load("policy.pt"))
    policy.eval()
    env = gym.make("CartPole-v1")
    curriculum = Curriculum([200, 350, 500])
    total = 0.0
    for episode in range(20):
        obs, _ = env.reset(seed=episode)
        limit = curriculum.sample()
        for t in range(limit):
            logits, mu = policy(torch.as_tensor(obs, dtype=torch.float32))
            action = Categorical(logits=logits).sample()  # expect: RPL101
            noise = Normal(mu, 0.1)
            push = noise.rsample()  # expect: RPL101
            obs, reward, terminated, truncated, _ = env.step(int(action) if push.item() > -10 else 0)
            total += reward
            if terminated or truncated:
                break
    print(total / 20)


if __name__ == "__main__":
    main()
