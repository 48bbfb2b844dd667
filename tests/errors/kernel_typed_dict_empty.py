import numpy as np

from cujit import cuda, typed, types


@cuda.jit
def kernel(a):
    d = typed.Dict.empty(types.int64, types.int64)  # error: UnsupportedError: numba.typed.Dict.empty() is not supported in a CUDA kernel
    a[0] = len(d)


kernel[1, 1](cuda.to_device(np.zeros(2)))
