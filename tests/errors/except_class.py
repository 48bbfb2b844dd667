from cujit import njit


@njit
def f(x):
    try:
        x = 1 // x
    except ZeroDivisionError:  # error: TypingError: No implementation of function Function(<intrinsic exception_match>)
        x = 0
    return x


f(1)
