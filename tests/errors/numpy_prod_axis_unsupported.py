from cujit import njit
import numpy as np


@njit
def f(a):
    return np.prod(a, 0)  # error: UnsupportedError: numpy.prod() takes one array (axis=, dtype= and out= are not supported, as in Numba)


f(np.ones((2, 2)))
