import numpy as np

from cujit import cuda


@cuda.jit
def k(out):
    a = cuda.shared.array((2**32, 2**32), np.float64)  # error: TypingError: cuda.shared.array() is too large: its size in bytes does not fit in 64 bits
    out[0] = a[0, 0]


k[1, 1](np.zeros(1))
