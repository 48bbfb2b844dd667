# target: sim
from cujit import njit


@njit
def f():
    return sorted([3, 1, 2], key=5)  # error: UnsupportedError: key= must name a function


f()
