import numpy as np

from cujit import cuda

NAME = "abc"


@cuda.jit(device=True)
def helper(x):
    return NAME.find("b") + x  # error: UnsupportedError: strings are not supported in GPU code (here a CUDA device function


@cuda.jit
def kernel(a):
    a[0] = helper(1)


kernel[1, 1](cuda.to_device(np.zeros(2)))
