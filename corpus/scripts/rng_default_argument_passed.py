"""A walk sampler whose generator parameters default to fresh instances: `sample_walk`'s
entropy-seeded default is never used (every call passes the seeded generator), while
`sample_negatives`'s is (one call leaves it out)."""
import random

import numpy as np


def sample_walk(graph, length, rand=random.Random()):
    walk = [rand.choice(sorted(graph))]
    while len(walk) < length:
        walk.append(rand.choice(graph[walk[-1]]))
    return walk


def sample_negatives(nodes, count, rng=np.random.RandomState()):  # expect: RPL102
    return rng.choice(nodes, size=count)


graph = {0: [1, 2], 1: [0], 2: [0, 1]}
seeded = random.Random(7)
walks = [sample_walk(graph, 5, seeded) for _ in range(10)]
walks += [sample_walk(graph, 3, rand=seeded)]
negatives = sample_negatives(np.arange(3), 4)
np.save("walks.npy", np.array([w[:3] for w in walks]))
np.save("negatives.npy", negatives)
