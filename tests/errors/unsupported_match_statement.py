import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    match a[0]:  # error: UnsupportedError: 'match' statements are not supported
        case 1:
            pass


kernel[1, 1](cuda.to_device(np.zeros(2)))
