# target: sim
from cujit import njit


# Numba compiles f-strings without a conversion or a format spec only.
@njit
def f(x):
    return f"{x:5}"  # error: UnsupportedError: format spec in f-strings not supported yet


f(3)
