# target: sim
from cujit import njit


# Numba's str() of a float gives the placeholder '<object type:float64>'; cujit refuses it.
@njit
def f(y):
    return f"y is {y}"  # error: UnsupportedError: str() of a float64 is not supported


f(2.5)
