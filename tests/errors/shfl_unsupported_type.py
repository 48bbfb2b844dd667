import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    v = a[cuda.grid(1)]
    a[0] = cuda.shfl_down_sync(0xffffffff, v, 1)  # error: TypingError: shfl_down_sync() only supports 32- and 64-bit ints and floats, got int16


k[1, 32](np.zeros(32, dtype=np.int16))
