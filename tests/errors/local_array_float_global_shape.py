import numpy as np

from cujit import cuda

SIZE = 4.0


@cuda.jit
def k(out):
    a = cuda.local.array(SIZE, np.float64)  # error: TypingError: cuda.local.array() needs a shape of constant integers (literals, global ints and tuples, and arithmetic on them): 'SIZE' is a global float64, not an integer
    out[0] = a[0]


k[1, 1](np.zeros(1))
