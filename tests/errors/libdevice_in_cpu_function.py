import numpy as np
from cujit import njit
from cujit.cuda import libdevice


@njit
def f(x):
    return libdevice.sin(x)  # error: TypingError: libdevice.sin() is GPU code: it cannot be called from a CPU function (@jit); compile the function with @cuda.jit instead


f(1.0)
