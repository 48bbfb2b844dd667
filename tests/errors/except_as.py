from cujit import njit


@njit
def f(x):
    try:
        x = 1 // x
    except Exception as e:  # error: UnsupportedError: Exception object cannot be stored into variable (e).
        x = 0
    return x


f(1)
