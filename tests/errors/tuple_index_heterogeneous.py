import numpy as np

from cujit import cuda


@cuda.jit
def kernel(out, t, i):
    out[0] = t[i]  # error: TypingError: No implementation of function getitem found for signature: getitem(Tuple(int64, float64), int64)


kernel[1, 1](np.zeros(1), (1, 2.5), 0)
