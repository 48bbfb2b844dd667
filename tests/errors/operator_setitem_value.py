import operator

from cujit import njit
import numpy as np


@njit
def f(a):
    x = operator.setitem(a, 0, 1.0)  # error: TypingError: operator.setitem() returns None: it is supported as a statement of its own only
    return x


f(np.zeros(2))
