import numpy as np

from cujit import njit


@njit
def f(a):
    return np.moveaxis(a, (), ())  # error: TypingError: The second argument "source" must be an integer or sequence of integers


f(np.zeros((2, 2)))
