"""Old gym (< 0.26) DQN-style loop: `env.seed(seed)` seeds the environment's generator, so
the seedless `env.reset()` calls after it continue a seeded stream (no RPL102). The
agent wraps the environment in a class and seeds it there (`self.env.seed(seed)`)."""
import gym
import numpy as np
import torch
import torch.nn as nn


class Agent:
    def __init__(self, name, seed):
        self.env = gym.make(name)
        self.env.seed(seed)
        self.env.action_space.seed(seed)
        self.q = nn.Linear(4, 2)

    def episode(self, optimizer):
        obs = self.env.reset()
        done = False
        while not done:
            if np.random.rand() < 0.1:
                action = self.env.action_space.sample()
            else:
                action = int(self.q(torch.as_tensor(obs, dtype=torch.float32)).argmax())
            obs, reward, done, _ = self.env.step(action)
            loss = (self.q(torch.as_tensor(obs, dtype=torch.float32)).max() - reward) ** 2
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def main(seed=0):
    torch.manual_seed(seed)
    np.random.seed(seed)
    agent = Agent("CartPole-v0", seed)
    optimizer = torch.optim.SGD(agent.q.parameters(), lr=1e-2)
    for _ in range(100):
        agent.episode(optimizer)


if __name__ == "__main__":
    main()
