import numpy as np

from cujit import njit


@njit
def f(a):
    return a + a  # error: UnsupportedError: whole-array arithmetic ('+' on array(float64, 1d, C)) is not supported in a CPU function (@jit) yet


f(np.zeros(4))
