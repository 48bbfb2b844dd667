import numpy as np
from cujit import cuda


@cuda.jit
def k(a, b):
    a[0, :] = b  # error: TypingError: cannot assign a array(float32, 2d, C) to a slice with fewer dimensions


k[1, 1](np.zeros((2, 2), dtype=np.float32), np.zeros((2, 2), dtype=np.float32))
