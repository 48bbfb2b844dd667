from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    t = (1, 0.5)
    a[t] = 1  # error: TypingError: array indices must be integers, not float64


k[1, 1](np.zeros((2, 2)))
