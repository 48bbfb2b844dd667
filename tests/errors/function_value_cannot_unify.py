from cujit import cuda
import numpy as np


@cuda.jit(device=True)
def sq(x):
    return x * x


@cuda.jit(device=True)
def cube(x):
    return x * x * x


@cuda.jit
def k(out):
    f = sq
    if out[0] > 0:
        f = cube
    out[1] = f(2)  # error: TypingError: Cannot unify Function(sq) and Function(cube) for 'f'


k[1, 1](np.zeros(2))
