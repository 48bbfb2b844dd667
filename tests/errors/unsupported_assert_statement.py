import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    assert a[0] == 0  # error: UnsupportedError: 'assert' statements are not supported


kernel[1, 1](cuda.to_device(np.zeros(2)))
