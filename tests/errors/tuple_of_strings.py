import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    pair = ("x", 1)  # error: UnsupportedError: strings are not supported in GPU code (here a CUDA kernel
    a[0] = pair[1]


kernel[1, 1](cuda.to_device(np.zeros(2)))
