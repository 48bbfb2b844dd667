import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    import math  # error: UnsupportedError: 'import' statements are not supported
    a[0] = math.pi


kernel[1, 1](cuda.to_device(np.zeros(2)))
