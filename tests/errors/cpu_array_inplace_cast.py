import numpy as np

from cujit import njit


@njit
def f(a):
    a += 1.5  # error: TypingError: Cannot cast ufunc 'add' output from float64 to int32 with casting rule 'same_kind'
    return a


f(np.zeros(4, np.int32))
