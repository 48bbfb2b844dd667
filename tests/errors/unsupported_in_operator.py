import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    if 1 in (1, 2):  # error: UnsupportedError: 'in' is not supported in compiled code
        a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
