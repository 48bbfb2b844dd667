from cujit import njit


@njit
def f(x):
    try:
        x = 1 // x
    except Exception:
        raise  # error: UnsupportedError: The re-raising of an exception is not yet supported.
    return x


f(1)
