import numpy as np

from cujit import cuda


@cuda.jit
def k(z):
    print(z[0])  # error: UnsupportedError: print() of a complex128 is not supported in GPU code


k[1, 1](np.zeros(1, np.complex128))
