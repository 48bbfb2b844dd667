import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    def g():  # error: UnsupportedError: nested function definitions are not supported
        return 1
    a[0] = g()


kernel[1, 1](cuda.to_device(np.zeros(2)))
