from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0] = 1  # error: TypingError: cannot store a int64 into a Record(x[type=int32;offset=0];4;False)


k[1, 1](np.zeros(2, dtype=[("x", np.int32)]))
