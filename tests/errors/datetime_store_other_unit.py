from cujit import cuda
import numpy as np


@cuda.jit
def k(out, d):
    out[0] = d[0]  # error: TypingError: cannot store a datetime64[h] into an element of array(datetime64[D], 1d, C)


k[1, 1](np.zeros(1, "M8[D]"), np.zeros(1, "M8[h]"))
