from cujit import njit
import numpy as np


@njit
def f(a, i):
    return a[0][i]  # error: TypingError: a record is indexed by a constant field name or field number


f(np.zeros(2, dtype=[("x", np.int32)]), 0)
