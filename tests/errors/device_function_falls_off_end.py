import numpy as np
from cujit import cuda


@cuda.jit(device=True)
def times7(x):  # error: UnsupportedError: times7() can reach its end without a return (returning None) and returns int64 on others
    if x > 0:
        return x * 7


@cuda.jit
def k(out, x):
    out[0] = times7(x)


k[1, 1](np.zeros(1, dtype=np.int64), -3)
