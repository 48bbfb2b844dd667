import numpy as np

from cujit import cuda


@cuda.jit
async def kernel(a):  # error: UnsupportedError: 'async' functions are not supported
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
