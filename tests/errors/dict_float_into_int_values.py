from cujit import njit


@njit
def f():
    d = {1: 2}
    d[2] = 3.5  # error: TypingError: No implementation of function Function(<built-in function setitem>) found for signature
    return len(d)


f()
