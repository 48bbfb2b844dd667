import random

from cujit import vectorize


@vectorize(['float64(float64)'], target='cuda')
def noisy(x):
    return x + random.random()  # error: UnsupportedError: random.random() is not supported in a CUDA ufunc (@vectorize(target='cuda')): it is only supported in CPU code
