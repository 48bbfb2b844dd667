import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    s = {1, 2}  # error: UnsupportedError: set literals are not supported
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
