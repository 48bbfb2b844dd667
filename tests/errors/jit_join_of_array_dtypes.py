import numpy as np
from cujit import njit


@njit
def f(n):
    a = np.zeros(n, dtype=np.int32)
    if n > 2:
        a = np.ones(n)
    return a[0]  # error: TypingError: Cannot unify array(int32, 1d, C) and array(float64, 1d, C) for 'a'


f(3)
