import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    pair = ("x", 1)  # error: UnsupportedError: a tuple cannot hold a unicode_type in compiled code
    a[0] = pair[1]


kernel[1, 1](cuda.to_device(np.zeros(2)))
