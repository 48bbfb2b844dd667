import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    yield a[0]  # error: UnsupportedError: 'yield' is not supported (generators cannot be compiled)


kernel[1, 1](cuda.to_device(np.zeros(2)))
