from cujit import njit


@njit
def f():
    d = {1: [1, 2]}  # error: TypingError: list(int64) as value is forbidden
    return len(d)


f()
