from cujit import njit


@njit
def f(x):
    values = []  # error: TypingError: cannot infer the type of the empty list 'values'
    return len(values)


f(1.0)
