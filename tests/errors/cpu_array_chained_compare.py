import numpy as np

from cujit import njit


@njit
def f(a):
    return 0 < a < 1  # error: TypingError: the truth value of an array is ambiguous: chained comparisons of arrays are not supported


f(np.zeros(4))
