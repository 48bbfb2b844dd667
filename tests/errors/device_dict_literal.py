import numpy as np

from cujit import cuda


@cuda.jit(device=True)
def lookup(x):
    d = {1: x}  # error: UnsupportedError: dict literals are not supported in a CUDA device function
    return x


@cuda.jit
def kernel(a):
    a[0] = lookup(1.0)


kernel[1, 1](cuda.to_device(np.zeros(2)))
