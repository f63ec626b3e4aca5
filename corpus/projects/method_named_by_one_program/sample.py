"""Samples text with the character model, NumPy seeded before `pick` draws."""
import numpy as np

from model import CharModel

np.random.seed(0)
chars = CharModel("abc")
print(chars.vocab[chars.pick([0.2, 0.3, 0.5])])
