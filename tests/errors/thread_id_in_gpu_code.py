import numpy as np

import cujit
from cujit import cuda


@cuda.jit
def which(out):
    out[0] = cujit.get_thread_id()  # error: UnsupportedError: numba.get_thread_id() is not supported in a CUDA kernel: it is only supported in CPU code


which[1, 1](cuda.to_device(np.zeros(1, np.int64)))
