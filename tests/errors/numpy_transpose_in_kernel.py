from cujit import cuda
import numpy as np


@cuda.jit
def k(a, out):
    out[0] = a.T[0, 1]  # error: UnsupportedError: a.T is not supported in a CUDA kernel (CPU code only)


k[1, 1](np.zeros((2, 2)), np.zeros(1))
