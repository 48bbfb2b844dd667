import numpy as np

from cujit import cuda


@cuda.jit(device=True)
def consumer(f, x):
    return f(x)


@cuda.jit
def kernel(out, c):
    if c:
        x = 3
        def inner(y):  # error: TypingError: Cannot capture a constant value for variable 'x' as there are multiple definitions present.
            return y + x
        out[0] = consumer(inner, 1)
    else:
        x = 6
        def inner(y):
            return y + x
        out[0] = consumer(inner, 2)


kernel[1, 1](np.zeros(1), 1)
