import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a, **rest):  # error: UnsupportedError: **kwargs parameters are not supported
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
