from cujit import cuda
import numpy as np


@cuda.jit
def k(a):
    a[0] = cuda.fp16.hsin(a)  # error: TypingError: cuda.fp16.hsin() needs float16 numbers, got array(float16, 1d, C)


k[1, 1](np.zeros(2, np.float16))
