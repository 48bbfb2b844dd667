import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    a[1.5] = 0  # error: TypingError: array indices must be integers, not float64


k[1, 1](np.zeros(4, dtype=np.float32))
