import numpy as np
import torch.nn as nn


def init_weights(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)  # expect: RPL101


def random_crop_box(size, crop):
    """Nothing in the project names this helper: no program can call it."""
    top = np.random.randint(0, size - crop)
    left = np.random.randint(0, size - crop)
    return top, left


class Augmenter:
    """Built by no program here: the helper only its body names never runs."""

    def __init__(self, strength=0.1):
        self.strength = strength

    def __call__(self, x):
        return jitter(x)


def jitter(x):
    return x + np.random.normal(size=x.shape)


def warmup_steps(total):
    return int(total * np.random.uniform(0.01, 0.05))  # expect: RPL101


def make_schedule(total):
    """Handed to the trainer as a callback (never called here): what it names runs too."""
    return [min(1.0, step / warmup_steps(total)) for step in range(total)]


def random_flip(x):
    return x[:, ::-1] if np.random.rand() < 0.5 else x


def offline_pipeline(images):
    """Named by nothing: neither it nor `random_flip`, which only it names, runs."""
    return [random_flip(image) for image in images]
