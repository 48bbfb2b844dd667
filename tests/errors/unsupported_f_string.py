import numpy as np

from cujit import cuda


# An f-string is str() of each value, and strings exist in @jit code only (as in numba-cuda).
@cuda.jit
def kernel(a):
    s = f'{a[0]}'  # error: UnsupportedError: strings are not supported in GPU code


kernel[1, 1](cuda.to_device(np.zeros(2)))
