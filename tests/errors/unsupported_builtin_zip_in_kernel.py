import numpy as np

from cujit import cuda


@cuda.jit
def k(a, b):
    for x, y in zip(a, b):  # error: UnsupportedError: the builtin zip() is not supported in a CUDA kernel yet
        a[0] = x + y


k[1, 1](np.zeros(3), np.zeros(3))
