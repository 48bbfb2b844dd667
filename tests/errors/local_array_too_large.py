import numpy as np

from cujit import cuda, float64


@cuda.jit
def k(out):
    a = cuda.local.array(2**40, float64)  # error: TypingError: cuda.local.array() is too large: this array takes 8796093022208 bytes, more than the 524288 bytes (512 KiB) of local memory a GPU thread may have
    out[0] = a[0]


k[1, 1](np.zeros(1))
