from cujit import njit
import numpy as np


@njit
def f(x, xp, fp):
    return np.interp(x, xp, fp)  # error: TypingError: No implementation of function numpy.interp found for signature: interp(float64, array(float64, 2d, C), array(float64, 1d, C))


f(1.5, np.array([[1.0, 2.0]]), np.array([1.0, 2.0]))
