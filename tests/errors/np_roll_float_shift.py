from cujit import njit
import numpy as np


@njit
def f(a):
    return np.roll(a, 1.5)  # error: TypingError: No implementation of function numpy.roll found for signature: roll(array(float64, 1d, C), float64)


f(np.arange(5.0))
