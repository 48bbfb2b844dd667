from cujit import njit
import numpy as np


@njit
def f(a):
    return enumerate(a)  # error: UnsupportedError: returning enumerate() from a function is not supported


f(np.zeros(2))
