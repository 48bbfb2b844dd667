import numpy as np

from cujit import njit


@njit
def f(a):
    return np.moveaxis(a, (0, 1), (1, 0))  # error: UnsupportedError: numpy.moveaxis() with a tuple of axes is not supported (move one axis at a time)


f(np.zeros((2, 2)))
