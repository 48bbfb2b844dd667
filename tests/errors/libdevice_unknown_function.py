import numpy as np
from cujit import cuda
from cujit.cuda import libdevice


@cuda.jit
def k(r, x):
    r[0] = libdevice.sinx(x[0])  # error: TypingError: Unknown attribute 'sinx' of module 'numba.cuda.libdevice'


k[1, 1](np.zeros(1), np.ones(1))
