import numpy as np
from cujit import cuda


@cuda.jit
def k(a):
    cuda.atomic.add(a, 0, 1)  # error: TypingError: Cannot modify readonly array of type: readonly array(int32, 1d, C)


a = np.zeros(4, dtype=np.int32)
a.flags.writeable = False
k[1, 1](a)
