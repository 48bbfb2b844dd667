from cujit import njit
import numpy as np


@njit
def f(a):
    return np.sum(a)  # error: UnsupportedError: numpy.sum() is not supported on records (got unaligned array(Record(x[type=int32;offset=0];4;False), 1d, C))


f(np.zeros(2, dtype=[("x", np.int32)]))
