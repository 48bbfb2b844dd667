from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0].x = (1, 2)  # error: TypingError: cannot store a UniTuple(int64 x 2) into a record field of type int32


k[1, 1](np.zeros(2, dtype=[("x", np.int32), ("y", np.float64)]))
