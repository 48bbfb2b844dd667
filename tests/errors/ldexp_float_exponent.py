import math

from cujit import cuda


@cuda.jit("void(float64[:])")
def k(a):
    a[0] = math.ldexp(a[0], 2.0)  # error: TypingError: math.ldexp() needs an integer exponent, got float64
