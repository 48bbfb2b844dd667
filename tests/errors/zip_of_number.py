from cujit import cuda
import numpy as np


@cuda.jit
def k(a, out):
    for x, y in zip(a, 1.5):  # error: TypingError: zip() needs an iterable (a range, an array, a tuple, enumerate or zip), not float64
        out[0] += x * y


k[1, 1](np.zeros(2), np.zeros(2))
