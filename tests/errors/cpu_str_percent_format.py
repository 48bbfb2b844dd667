from cujit import njit


@njit
def f(s):
    return s % 3  # error: UnsupportedError: '%' formatting of a str is not supported


f("a%d")
