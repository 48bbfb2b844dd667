import numpy as np

from cujit import cuda, typed


@cuda.jit
def kernel(a):
    l = typed.List()  # error: UnsupportedError: numba.typed.List() is not supported in a CUDA kernel
    l.append(1)
    a[0] = len(l)


kernel[1, 1](cuda.to_device(np.zeros(2)))
