from cujit import cuda
import numpy as np


@cuda.jit
def k(a, out):
    idx = np.where(a)  # error: UnsupportedError: numpy.where() is not supported in a CUDA kernel: it is only supported in CPU code
    out[0] = idx[0][0]


k[1, 1](np.ones(4), np.zeros(1, dtype=np.int64))
