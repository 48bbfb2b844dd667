from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    t = (1,)
    cuda.atomic.add(a, t, 1)  # error: TypingError: cuda.atomic.add() needs 2 index(es) for array(float64, 2d, C)


k[1, 1](np.zeros((2, 2)))
