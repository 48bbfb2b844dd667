from cujit import njit
import numpy as np


@njit
def f(a, b):
    return np.isclose(a, b)  # error: TypingError: No implementation of function numpy.isclose found for signature: isclose(array(complex128, 1d, C), array(complex128, 1d, C))


f(np.array([1 + 1j, 2]), np.array([1 + 1j, 2.0001]))
