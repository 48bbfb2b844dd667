import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    a[0] += 1  # error: TypingError: Cannot modify readonly array of type: readonly array(float32, 1d, C)


a = np.zeros(4, dtype=np.float32)
a.flags.writeable = False
k[1, 1](a)
