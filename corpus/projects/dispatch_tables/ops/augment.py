"""Two module-level tables of functions. `OPS` is read only by `AugmentOp`, which only
`policy_transform` builds, and the training script calls that only with `--augment`:
the draws of the functions stored in `OPS` run only then, not on the default run.
`SCHEDULES` is read by the training script: the function stored there may run, and its
NumPy draw with it."""
import random

import numpy as np


def shear(image):
    return image * random.uniform(0.9, 1.1)


def rotate(image):
    return image[::-1] if random.random() < 0.5 else image


OPS = {
    "shear": shear,
    "rotate": rotate,
}


class AugmentOp:
    def __init__(self, names):
        self.fns = [OPS[name] for name in names]

    def __call__(self, image):
        for fn in self.fns:
            image = fn(image)
        return image


def policy_transform(names):
    return [AugmentOp(names)]


def jittered_cosine(step, total):
    return 0.5 * (1 + np.cos(np.pi * step / total)) + np.random.uniform(-0.01, 0.01)  # expect: RPL101


SCHEDULES = {"cosine": jittered_cosine}
