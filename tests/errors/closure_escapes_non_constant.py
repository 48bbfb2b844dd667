import numpy as np

from cujit import cuda


@cuda.jit(device=True)
def consumer(f, x):
    return f(x)


# A nested function passed as a value may capture constants only (Numba's rule).
@cuda.jit
def kernel(out, n):
    z = n * 2
    def inner(v):  # error: TypingError: Cannot capture the non-constant value associated with variable 'z' in a function that may escape.
        return v + z
    out[0] = consumer(inner, n)


kernel[1, 1](np.zeros(1), 3)
