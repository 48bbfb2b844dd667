import numpy as np
from cujit import cuda
from cujit.cuda import libdevice


@cuda.jit
def k(r, x):
    r[0] = libdevice.sinf(x[0], x[0])  # error: TypingError: No implementation of function libdevice.sinf found for signature: sinf(float32, float32); it takes (float32 a)


k[1, 1](np.zeros(1, np.float32), np.ones(1, np.float32))
