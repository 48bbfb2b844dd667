import numpy as np

from cujit import cuda

NAMES = ("ab", "cd")


@cuda.jit
def kernel(a):
    a[0] = len(NAMES[0])  # error: UnsupportedError: strings are not supported in GPU code (here a CUDA kernel


kernel[1, 1](cuda.to_device(np.zeros(2)))
