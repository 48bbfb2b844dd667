import numpy as np

from cujit import njit, prange


@njit(parallel=True)
def index_of(a, x):
    for i in prange(a.size):
        if a[i] == x:
            return i  # error: UnsupportedError: return inside a prange loop
    return -1


index_of(np.arange(10.0), 3.0)
