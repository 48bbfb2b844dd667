import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    b = a[1:]
    b[:] = 0  # error: TypingError: Cannot modify readonly array of type: readonly array(float32, 1d, A)


a = np.ones(4, dtype=np.float32)
a.flags.writeable = False
k[1, 1](a)
