import numpy as np

from cujit import cuda, njit


@njit
def f(a):
    a[0] = cuda.threadIdx.x  # error: TypingError: cuda.threadIdx is GPU code: it cannot be used in a CPU function (@jit); compile the function with @cuda.jit instead


f(np.zeros(4))
