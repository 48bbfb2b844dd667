from cujit import cuda
import numpy as np


@cuda.jit
def inner(a):
    a[0] = 1


@cuda.jit(device=True)
def call(f, a):
    f(a)


@cuda.jit
def outer(a):
    call(inner, a)  # error: TypingError: Untyped global name 'inner'


outer[1, 1](np.zeros(2))
