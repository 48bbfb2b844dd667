from cujit import njit


@njit
def risky(x):
    if x:
        raise IndexError("from risky")
    return 1


@njit
def f(x):
    y = 5
    try:
        risky(x)
        y = 1.5  # error: UnsupportedError: 'y' is assigned a value of type float64 in this 'try' body, but holds one of type int64 before it
    except Exception:
        pass
    return y


f(1)
