import numpy as np
from cujit import cuda
from cujit.extending import overload


def get_42():
    raise NotImplementedError()


@overload(get_42)
def ol_get_42():
    return lambda: 42


@cuda.jit
def k(a):
    a[0] = get_42()  # error: TypingError: given an implementation with numba.extending.overload: cujit does not support Numba's extension API


k[1, 1](np.zeros(1))
