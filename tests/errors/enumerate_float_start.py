from cujit import njit
import numpy as np


@njit
def f(a):
    s = 0.0
    for i, x in enumerate(a, 0.5):  # error: TypingError: enumerate() start must be an integer, not float64
        s += i * x
    return s


f(np.zeros(2))
