import numpy as np

from cujit import njit


@njit
def f(x, bins):
    return np.digitize(x, bins)  # error: TypingError: x may not be complex


f(np.zeros(3, np.complex128), np.zeros(2))
