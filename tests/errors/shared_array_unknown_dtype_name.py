import numpy as np

from cujit import cuda


@cuda.jit
def k(out):
    a = cuda.shared.array(4, 'float33')  # error: TypingError: cuda.shared.array() got an unknown dtype name 'float33'
    out[0] = a[0]


k[1, 1](np.zeros(1))
