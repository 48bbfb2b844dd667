import numpy as np

from cujit import cuda

N = 2**40


@cuda.jit
def k(out):
    a = cuda.local.array(N * N, np.float64)  # error: TypingError: cuda.local.array() shape is too large: this size does not fit in 64 bits
    out[0] = a[0]


k[1, 1](np.zeros(1))
