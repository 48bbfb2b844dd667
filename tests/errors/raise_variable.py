from cujit import njit


@njit
def f(x):
    e = ValueError
    raise e  # error: UnsupportedError: raising an exception held in a variable ('e') is not supported


f(1)
