import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    a[0, :] += 1  # error: UnsupportedError: augmented assignment to a slice


k[1, 1](np.zeros((2, 2), dtype=np.float32))
