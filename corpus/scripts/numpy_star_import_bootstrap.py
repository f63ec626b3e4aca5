# Bootstrap confidence interval for a linear fit, written in the old NumPy style.
import numpy as np
from numpy.random import *

N_POINTS = 500
N_BOOT = 2000

# Toy data, drawn before the seed below.
x = randn(N_POINTS)  # expect: RPL101
y = 3.0 * x + 0.5 + normal(0.0, 0.8, N_POINTS)  # expect: RPL101

seed(7)

slopes = np.empty(N_BOOT)
for b in range(N_BOOT):
    idx = randint(0, N_POINTS, N_POINTS)
    A = np.vstack([x[idx], np.ones(N_POINTS)]).T
    slopes[b], _ = np.linalg.lstsq(A, y[idx], rcond=None)[0]

lo, hi = np.percentile(slopes, [2.5, 97.5])
print(f"slope 95% CI: [{lo:.3f}, {hi:.3f}]")

# A permutation test on the residuals.
resid = y - (slopes.mean() * x + 0.5)
observed = abs(np.corrcoef(x, resid)[0, 1])
null = [abs(np.corrcoef(x, permutation(resid))[0, 1]) for _ in range(1000)]
print("p =", np.mean(np.array(null) >= observed))
