from cujit import njit


@njit
def f(x):
    return str(x)  # error: UnsupportedError: str() of a float64 is not supported


f(1.5)
