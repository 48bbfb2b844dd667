import numpy as np

from cujit import njit, prange


@njit(parallel=True)
def differences(a, out):
    prev = 0.0
    for i in prange(a.size):
        out[i] = a[i] - prev  # error: UnsupportedError: 'prev' is read before this iteration of the prange loop assigns it
        prev = a[i]


differences(np.ones(10), np.empty(10))
