# target: sim
import numpy as np

from cujit import njit


@njit
def f(a):
    return np.linalg.inv(a)  # error: TypingError: np.linalg.inv() only supported on float and complex arrays.


f(np.eye(2, dtype=np.int64))
