from cujit import njit


@njit
def f(x):
    raise ValueError from None  # error: UnsupportedError: Multiple argument raise is not supported.


f(1)
