from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    b = np.cumsum(a)  # error: UnsupportedError: numpy.cumsum() is not supported in a CUDA kernel: it is only supported in CPU code
    a[0] = b[0]


k[1, 1](np.zeros(4))
