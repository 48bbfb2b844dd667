import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    x = 1.5
    if a[0] > 0 and (x := 3) > 2:  # error: UnsupportedError: an assignment expression that may not run
        a[1] = x


kernel[1, 1](cuda.to_device(np.zeros(2)))
