import numpy as np

from cujit import cuda


@cuda.jit
def kernel(a):
    try:  # error: UnsupportedError: 'try' statements are not supported in GPU code (@cuda.jit)
        a[0] = 1
    except Exception:
        pass


kernel[1, 1](cuda.to_device(np.zeros(2)))
