# target: sim
from cujit import njit


@njit
def f():
    return sorted([1, 2], key=lambda t: (t, 1j * t))  # error: UnsupportedError: a sort key function returning


f()
