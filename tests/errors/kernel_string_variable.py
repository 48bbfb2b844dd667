import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    name = "abc"  # error: UnsupportedError: strings are not supported in GPU code
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
