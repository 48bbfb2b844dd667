from cujit import njit


@njit
def f(n):
    while len([i for i in range(n)]) > 3:  # error: UnsupportedError: a list comprehension here (a while loop's test
        n -= 1
    return n


f(5)
