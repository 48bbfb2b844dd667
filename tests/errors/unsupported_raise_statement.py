import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    raise ValueError('bad')  # error: UnsupportedError: 'raise' statements are not supported


kernel[1, 1](cuda.to_device(np.zeros(2)))
