"""An evolution-strategies launcher: the master builds a generator it never uses (left
over from an earlier version of the code), the workers perturb parameters with noise.

Positive: each worker's generator, seeded from OS entropy, draws the perturbations."""
import numpy as np


def run_master(theta, iterations):
    rs = np.random.RandomState()
    for step in range(iterations):
        theta = theta * 0.99
        print(step, float(theta.sum()))
    return theta


def run_worker(theta, sigma, population):
    rs = np.random.RandomState()  # expect: RPL102
    noise = rs.randn(population, theta.size)
    returns = -np.square(theta[None, :] + sigma * noise).sum(axis=1)
    return noise, returns


if __name__ == "__main__":
    start = np.zeros(8)
    print(run_master(start, 3))
    print(run_worker(start, 0.1, 16)[1].mean())
