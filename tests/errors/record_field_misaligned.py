from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0].a = a[0].b  # error: TypingError: Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False).b of type float64 is not aligned


k[1, 1](np.zeros(2, dtype=[("a", np.int32), ("b", np.float64)]))
