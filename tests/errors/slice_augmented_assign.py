import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    a[0, :] += 1  # error: UnsupportedError: whole-array arithmetic ('+' on array(float32, 1d, A)) is not supported in a CUDA kernel; index the array element by element


k[1, 1](np.zeros((2, 2), dtype=np.float32))
