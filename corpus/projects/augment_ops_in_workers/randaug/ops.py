"""RandAugment-style operations, each drawing its own sign, picked out of a list by the
transform: they run wherever the transform runs."""
import random


def shear_x(img, v):
    if random.random() > 0.5:
        v = -v
    return img.transform(img.size, 0, (1, v, 0, 0, 1, 0))


def rotate(img, v):
    if random.random() > 0.5:
        v = -v
    return img.rotate(v)


def op_table():
    return [(shear_x, 0.0, 0.3), (rotate, 0, 30)]


class RandAugment:
    def __init__(self, n, m):
        self.n = n
        self.m = m
        self.table = op_table()

    def __call__(self, img):
        chosen = random.choices(self.table, k=self.n)
        for op, low, high in chosen:
            img = op(img, self.m / 30 * (high - low) + low)
        return img
