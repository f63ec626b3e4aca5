"""A Python 2 training script whose editor mixed tabs and spaces: Python 2 reads a tab as
indentation to the next multiple of 8 columns, so the nested lines run as written.
NumPy is never seeded: the batch shuffle is reported."""
import numpy as np


def batches(data, size):
    order = np.arange(len(data))
    if size > 0:
	np.random.shuffle(order)  # expect: RPL101
	for i in range(0, len(data), size):
	    yield data[order[i:i + size]]


if __name__ == "__main__":
    data = np.load("train.npy")
    for batch in batches(data, 32):
	print batch.mean()
