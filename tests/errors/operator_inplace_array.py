import operator

from cujit import njit
import numpy as np


@njit
def f(a):
    return operator.iadd(a, 1)  # error: UnsupportedError: operator.iadd() is supported on numbers only


f(np.zeros(2))
