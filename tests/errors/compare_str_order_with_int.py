# target: sim
from cujit import njit


# `==` and `!=` of a str and an int are False and True (Numba's); an order between them is
# refused, as Numba refuses it.
@njit
def f(s):
    return s < 1  # error: TypingError: '<' is not supported between unicode_type and int64


f("a")
