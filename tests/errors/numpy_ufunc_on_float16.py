from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0] = np.sin(a[1])  # error: UnsupportedError: np.sin() on float16 is not supported


k[1, 1](np.zeros(2, np.float16))
