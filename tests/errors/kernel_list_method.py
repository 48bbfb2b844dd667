import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    n = list(range(3))  # error: UnsupportedError: list() is not supported in a CUDA kernel (lists exist in CPU code only, as in numba-cuda)
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
