from cujit import njit


@njit
def f(x):
    y = x + 1
    e = ValueError("bad", y)  # error: UnsupportedError: an argument of an exception held in a variable must be a literal or a name the function never assigns
    y = 0
    raise e


f(1)
