from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0].z = 1  # error: TypingError: Record has no field 'z' (its fields: 'x', 'y')


k[1, 1](np.zeros(2, dtype=[("x", np.int32), ("y", np.float64)]))
