import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    x = 1
    del x  # error: UnsupportedError: 'del' statements are not supported


kernel[1, 1](cuda.to_device(np.zeros(2)))
