import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    if 1 in a:  # error: TypingError: No implementation of function contains found for signature: contains(array(float64, 1d, C), int64)
        a[0] = 1


kernel[1, 1](cuda.to_device(np.zeros(2)))
