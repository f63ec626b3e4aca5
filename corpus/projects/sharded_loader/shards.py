"""Shard samplers of a streaming loader. A generator built without a seed as a
placeholder and replaced by a seeded one (or seeded in place) where it draws is seeded;
look-alikes next to them: a placeholder that is never reseeded, and one "replaced" by
another unseeded generator."""
import random

import numpy
import torch


class ResampledShards:
    """Placeholder in `__init__`, replaced per epoch by a generator built from the seed."""

    def __init__(self, urls, seed=0):
        self.urls = urls
        self.seed = seed
        self.epoch = 0
        self.rng = random.Random()

    def __iter__(self):
        self.epoch += 1
        self.rng = random.Random(self.seed + self.epoch)
        for _ in range(len(self.urls)):
            yield self.urls[self.rng.randint(0, len(self.urls) - 1)]


class EpochShuffle:
    """Placeholder seeded in place by `set_epoch` before each pass."""

    def __init__(self, items):
        self.items = list(items)
        self.gen = torch.Generator()

    def set_epoch(self, epoch):
        self.gen.manual_seed(1234 + epoch)

    def __iter__(self):
        order = torch.randperm(len(self.items), generator=self.gen)
        return iter([self.items[i] for i in order])


class JitteredShards:
    """Never reseeded: every pass draws from OS entropy."""

    def __init__(self, urls):
        self.urls = urls
        self.rng = random.Random()  # expect: RPL102

    def __iter__(self):
        return iter(self.rng.sample(self.urls, len(self.urls)))


class ReplacedUnseeded:
    """Replaced, but by another generator without a seed."""

    def __init__(self, urls):
        self.urls = urls
        self.rng = numpy.random.RandomState()  # expect: RPL102

    def __iter__(self):
        self.rng = numpy.random.RandomState(None)  # expect: RPL102
        return iter(self.rng.permutation(self.urls))


# gym-style module generator with a seeding function of its own
np_random = numpy.random.RandomState()


def seed(value):
    np_random.seed(value)
