import numpy as np

from cujit import njit


@njit
def f(a):
    raise ValueError(a)  # error: UnsupportedError: an exception argument of type array(float64, 1d, C) is not supported


f(np.zeros(2))
