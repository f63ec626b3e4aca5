"""Plotting helper of an RL repository: one line of the running-average loop is
indented with a tab under a block indented with spaces. CPython reads the tab as the
next multiple of 8 columns, so the file runs; it is checked like any other."""
import matplotlib.pyplot as plt
import numpy as np


def plot_learning_curve(scores, filename):
    running_avg = np.empty(len(scores))
    for t in range(len(scores)):
	    running_avg[t] = np.mean(scores[max(0, t - 20):(t + 1)])
    plt.plot(running_avg)
    plt.savefig(filename)


if __name__ == "__main__":
    scores = [np.random.rand() for _ in range(100)]  # expect: RPL101
	
    plot_learning_curve(scores, "curve.png")
