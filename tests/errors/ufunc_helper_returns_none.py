# target: sim
import numpy as np
from cujit import njit, vectorize


@njit
def helper(x):  # error: UnsupportedError: helper() can reach its end without a return (returning None) and returns int64 on others
    if x > 0:
        return x


@vectorize(['int64(int64)'])
def f(x):
    return helper(x) + 1


f(np.arange(3, dtype=np.int64))
