import numpy as np
from cujit import cuda


@cuda.jit
def k(out, x):
    y = None
    if x > 0:
        y = x  # error: TypingError: Cannot unify none and int64 for 'y'
    out[0] = 1


k[1, 1](np.zeros(1, dtype=np.int64), 3)
