import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    global G  # error: UnsupportedError: 'global' statements are not supported
    G = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
