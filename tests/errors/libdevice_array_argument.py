import numpy as np
from cujit import cuda
from cujit.cuda import libdevice


@cuda.jit
def k(r, x):
    r[0] = libdevice.sin(x)  # error: TypingError: No implementation of function libdevice.sin found for signature: sin(array(float64, 1d, C)); it takes (float64 a)


k[1, 1](np.zeros(1), np.ones(1))
