import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    return a[0]  # error: TypingError: a kernel cannot return a value


k[1, 1](np.zeros(4, dtype=np.float32))
