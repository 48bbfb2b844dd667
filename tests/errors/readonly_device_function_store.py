import numpy as np
from cujit import cuda


@cuda.jit(device=True)
def clear(x):
    x[0] = 0  # error: TypingError: Cannot modify readonly array of type: readonly array(float64, 2d, A)


@cuda.jit
def k(a):
    clear(a[:, 1:])


a = np.ones((2, 2))
a.flags.writeable = False
k[1, 1](a)
