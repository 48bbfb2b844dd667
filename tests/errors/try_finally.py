from cujit import njit


@njit
def f(x):
    try:
        x = 1 // x
    finally:  # error: UnsupportedError: 'try' with 'finally' is not supported
        x = 0
    return x


f(1)
