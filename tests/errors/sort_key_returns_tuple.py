# target: sim
from cujit import njit


@njit
def f():
    return sorted([(1, "b"), (2, "a")], key=lambda t: (t[1], t[0]))  # error: UnsupportedError: a sort key function returning


f()
