from cujit import njit


@njit
def tail(t, i):
    return t[i:]  # error: UnsupportedError: a tuple can only be sliced by constants


tail((1, 2, 3), 1)
