"""A run named with a random number (`'%s-%d' % (...)`, `'{}'.format(...)`): the name is
text, no data; the data augmentation's `random.random()` is a real unseeded draw."""
import random

import numpy as np

RUN_NAME = "%s-%d" % ("mnist", random.randint(0, 100))
TMP_DIR = ".frames_{}/".format(random.randint(0, 99999))

np.random.seed(0)
weights = np.random.rand(784, 10)
images = np.load("train.npy")
for step in range(100):
    batch = images[np.random.randint(0, len(images), 32)]
    if random.random() < 0.5:  # expect: RPL101
        batch = batch[:, ::-1]
    weights -= 0.01 * batch.reshape(32, -1).T @ (batch.reshape(32, -1) @ weights)
np.save(TMP_DIR + RUN_NAME + ".npy", weights)
