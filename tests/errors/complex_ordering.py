from cujit import njit


@njit("boolean(complex128, complex128)")
def f(a, b):
    return a < b  # error: TypingError: '<' is not supported between complex128 and complex128: complex numbers have no order
