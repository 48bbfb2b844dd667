import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    s = f'{a[0]}'  # error: UnsupportedError: f-strings are not supported


kernel[1, 1](cuda.to_device(np.zeros(2)))
