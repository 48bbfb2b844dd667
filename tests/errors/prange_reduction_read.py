import numpy as np

from cujit import njit, prange


@njit(parallel=True)
def running_sum(a, out):
    total = 0.0
    for i in prange(a.size):
        total += a[i]
        out[i] = total  # error: UnsupportedError: 'total' is reduced in this prange loop (line 10) and read here
    return total


running_sum(np.ones(10), np.empty(10))
