# target: sim
from cujit import njit


# An inline lambda passed as a value (here a sort key) may capture constants only, as in Numba.
@njit
def f(x):
    return sorted([3, 1, 2], key=lambda v: v * x)  # error: TypingError: Cannot capture the non-constant value associated with variable 'x'


f(3)
