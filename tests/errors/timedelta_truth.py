from cujit import njit


@njit("int64(timedelta64[s])")
def f(t):
    if t:  # error: TypingError: the truth value of a timedelta64[s] is not defined here
        return 1
    return 0
