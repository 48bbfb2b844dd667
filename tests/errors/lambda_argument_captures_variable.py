# target: sim
from cujit import njit


@njit
def apply(fn, v):
    return fn(v)


# An inline lambda passed as a value may capture constants only, as in Numba.
@njit
def f(x):
    return apply(lambda z: z + x, 1)  # error: TypingError: Cannot capture the non-constant value associated with variable 'x'


f(3)
