import numpy as np

from cujit import njit


@njit
def f(a):
    return np.convolve(a, a)  # error: TypingError: np.convolve() only supported on 1D arrays


f(np.zeros((2, 2)))
