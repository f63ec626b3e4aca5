"""Multi-armed bandit simulation (epsilon-greedy vs Thompson sampling).

Each component owns its generator, but several are created from OS entropy.
"""
import random

import numpy as np
import torch


class BernoulliBandit:
    def __init__(self, probs, seed=None):
        self.probs = np.asarray(probs)
        self.rng = np.random.default_rng(seed)

    def pull(self, arm):
        return float(self.rng.random() < self.probs[arm])


class EpsilonGreedy:
    def __init__(self, n_arms, eps=0.1):
        self.counts = np.zeros(n_arms)
        self.values = np.zeros(n_arms)
        self.eps = eps
        self.coin = random.Random()  # expect: RPL102

    def select(self):
        if self.coin.random() < self.eps:
            return self.coin.randrange(len(self.values))
        return int(np.argmax(self.values))

    def update(self, arm, reward):
        self.counts[arm] += 1
        self.values[arm] += (reward - self.values[arm]) / self.counts[arm]


class Thompson:
    def __init__(self, n_arms):
        self.alpha = np.ones(n_arms)
        self.beta = np.ones(n_arms)
        self.rs = np.random.RandomState(None)  # expect: RPL102

    def select(self):
        return int(np.argmax(self.rs.beta(self.alpha, self.beta)))

    def update(self, arm, reward):
        self.alpha[arm] += reward
        self.beta[arm] += 1 - reward


def run(agent, bandit, steps=5000):
    total = 0.0
    for _ in range(steps):
        arm = agent.select()
        r = bandit.pull(arm)
        agent.update(arm, r)
        total += r
    return total / steps


if __name__ == "__main__":
    probs = [0.05, 0.1, 0.2, 0.25, 0.3]
    ss = np.random.SeedSequence()  # expect: RPL102
    print("entropy:", ss.entropy)
    child_a, child_b = ss.spawn(2)
    print("eps-greedy", run(EpsilonGreedy(len(probs)), BernoulliBandit(probs, seed=child_a)))
    print("thompson", run(Thompson(len(probs)), BernoulliBandit(probs, seed=child_b)))

    fixed = np.random.Generator(np.random.PCG64(12345))
    noisy = np.random.Generator(np.random.PCG64())  # expect: RPL102
    print(fixed.standard_normal(3), noisy.standard_normal(3))

    g = torch.Generator()
    g.seed()  # expect: RPL102
    print(torch.rand(3, generator=g))
    replay = random.Random(42)
    print([replay.random() for _ in range(3)])
