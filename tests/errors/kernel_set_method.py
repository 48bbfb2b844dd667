import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    s = set()  # error: UnsupportedError: set() is not supported in a CUDA kernel
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
