from cujit import njit
import numpy as np


@njit
def f(a):
    return a[..., 0, ...]  # error: TypingError: an index can only have a single ellipsis ('...')


f(np.zeros((2, 2)))
