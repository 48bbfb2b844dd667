from cujit import cuda
import numpy as np


@cuda.jit
def k(x, out):
    np.sin(x, out)  # error: TypingError: can't resolve ufunc sin for types


k[1, 1](np.zeros(3, np.int32), np.zeros(3, np.int32))
