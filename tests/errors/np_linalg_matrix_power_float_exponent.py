# target: sim
import numpy as np

from cujit import njit


@njit
def f(a):
    return np.linalg.matrix_power(a, 2.0)  # error: TypingError: Exponent must be an integer.


f(np.eye(2))
