import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    if (n := 3) > 2:  # error: UnsupportedError: assignment expressions (:=) are not supported
        a[0] = n


kernel[1, 1](cuda.to_device(np.zeros(2)))
