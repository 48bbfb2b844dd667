from cujit import njit
import numpy as np


@njit
def f(a):
    return a.flat[1:3]  # error: UnsupportedError: a.flat takes one integer index; slices and tuples of a flat iterator are not supported


f(np.zeros((2, 2)))
