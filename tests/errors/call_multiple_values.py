from cujit import njit


@njit
def g(a, b=2.0):
    return a + b


@njit
def f(x):
    return g(x, a=x)  # error: TypingError: g() got multiple values for argument 'a'


f(1.0)
