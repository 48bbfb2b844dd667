import operator

from cujit import cuda
import numpy as np


@cuda.jit
def k(out):
    out[0] = operator.add(out[0])  # error: TypingError: operator.add() takes 2 positional arguments but 1 was given
    

k[1, 1](np.zeros(2))
