import numpy as np

from cujit import njit


@njit
def f(a):
    s = 0
    for i, x in enumerate(a):  # error: UnsupportedError: the builtin enumerate() is not supported in a CPU function (@jit) yet
        s += i
    return s


f(np.zeros(3))
