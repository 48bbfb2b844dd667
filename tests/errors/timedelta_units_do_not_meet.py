from cujit import njit


@njit("timedelta64[D](timedelta64[Y], timedelta64[D])")
def f(a, b):
    return a + b  # error: TypingError: unsupported operand type(s) for +: 'timedelta64[Y]' and 'timedelta64[D]': the units of timedelta64[Y] and timedelta64[D] do not meet
