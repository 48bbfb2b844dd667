from cujit import cuda
from cujit.cuda.bf16 import hadd
import numpy as np


@cuda.jit
def k(a):
    a[0] = hadd(a[0], a[1])  # error: TypingError: numba.cuda.bf16.hadd: not supported by cujit (bfloat16)


k[1, 1](np.zeros(2, np.float32))
