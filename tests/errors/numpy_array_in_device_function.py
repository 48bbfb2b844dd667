import numpy as np

from cujit import cuda


@cuda.jit(device=True)
def scratch(n):
    return np.zeros(n)  # error: UnsupportedError: numpy.zeros() is not supported in a CUDA device function: it is only supported in CPU code (@jit, @vectorize); GPU code makes arrays with cuda.local.array


@cuda.jit
def k(out):
    t = scratch(4)
    out[0] = t[0]


k[1, 1](np.zeros(1))
