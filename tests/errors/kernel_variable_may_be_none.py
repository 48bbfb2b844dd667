import numpy as np
from cujit import cuda


@cuda.jit
def k(out, x):
    y = None
    if x > 0:
        y = x
    out[0] = y  # error: TypingError: Cannot unify none and int64 for 'y': the values it is given on lines 7 and 9 both reach this use (a variable that may be None is supported in @jit code only)


k[1, 1](np.zeros(1, dtype=np.int64), 3)
