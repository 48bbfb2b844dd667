from cujit import njit


@njit("float64(float64)")
def f(x):
    return x.bit_count()  # error: TypingError: bit_count() is a method of integers, not of float64
