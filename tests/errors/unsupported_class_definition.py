import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    class C:  # error: UnsupportedError: class definitions are not supported
        pass
    a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
