import numpy as np

from cujit import cuda


@cuda.jit(debug=True, opt=False)
def kernel(a):
    if a[0] > 0:
        raise ValueError("bad", a[0])  # error: UnsupportedError: an exception raised in GPU code takes constant arguments only
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
