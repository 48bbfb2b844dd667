import numpy as np
from cujit import cuda

TABLE = np.arange(4, dtype=np.float64)


@cuda.jit
def k(out):
    TABLE[0] = out[0]  # error: TypingError: Cannot modify readonly array of type: readonly array(float64, 1d, C)


k[1, 1](np.zeros(1))
