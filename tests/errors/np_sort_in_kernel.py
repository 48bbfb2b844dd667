import numpy as np

from cujit import cuda


@cuda.jit
def k(a):
    np.sort(a)  # error: UnsupportedError: numpy.sort() is not supported in


k[1, 1](np.arange(3.0))
