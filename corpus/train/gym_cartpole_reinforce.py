"""REINFORCE on gymnasium's CartPole with a small torch policy; nothing is seeded.

Two sources of difference between runs: torch's global generator (the policy's initial
weights, the sampled actions) and the environment's own generator, which `env.reset()`
without `seed=` seeds from OS entropy (no global seed reaches it).
"""

import argparse

import gymnasium as gym
import torch
from torch import nn


def run_episode(env, policy, max_steps):
    observation, _ = env.reset()  # expect: RPL102
    log_probs, rewards = [], []
    for _ in range(max_steps):
        logits = policy(torch.as_tensor(observation, dtype=torch.float32))
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()  # expect: RPL101
        log_probs.append(dist.log_prob(action))
        observation, reward, terminated, truncated, _ = env.step(int(action))
        rewards.append(float(reward))
        if terminated or truncated:
            break
    return log_probs, rewards


def discounted(rewards, gamma=0.99):
    out, total = [], 0.0
    for reward in reversed(rewards):
        total = reward + gamma * total
        out.append(total)
    returns = torch.tensor(out[::-1])
    return (returns - returns.mean()) / (returns.std() + 1e-8)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--max-steps", type=int, default=100)
    parser.add_argument("--out", help="save the trained policy (state dict) here")
    args = parser.parse_args(argv)

    env = gym.make("CartPole-v1")
    policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))  # expect: RPL101
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(args.episodes):
        log_probs, rewards = run_episode(env, policy, args.max_steps)
        loss = -(torch.stack(log_probs) * discounted(rewards)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"episode {episode}: return {sum(rewards):.0f}")
    env.close()
    if args.out:
        torch.save(policy.state_dict(), args.out)


if __name__ == "__main__":
    main()
