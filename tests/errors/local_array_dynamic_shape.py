import numpy as np
from cujit import cuda, float32


@cuda.jit
def k(a, n):
    tmp = cuda.local.array(n, dtype=float32)  # error: TypingError: cuda.local.array() needs a shape of constant integers
    a[0] = tmp[0]


k[1, 1](np.zeros(4, dtype=np.float32), 4)
