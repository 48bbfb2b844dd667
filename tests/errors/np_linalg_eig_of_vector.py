# target: sim
import numpy as np

from cujit import njit


@njit
def f(a):
    return np.linalg.eig(a)  # error: TypingError: np.linalg.eig() only supported on 2-D arrays.


f(np.ones(3))
