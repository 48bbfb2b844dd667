# target: sim
import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    cuda.syncthreads()  # error: UnsupportedError: cuda.syncthreads() is not supported by the simulator yet
    a[0] = 1


k[1, 1](np.zeros(4, dtype=np.float32))
