import numpy as np
from cujit import cuda


@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    out[i] = cuda.ballot_sync(0xffffffff, a[i])  # error: TypingError: ballot_sync() needs an integer or boolean predicate, got float32


k[1, 32](np.zeros(32, dtype=np.float32), np.zeros(32, dtype=np.int32))
