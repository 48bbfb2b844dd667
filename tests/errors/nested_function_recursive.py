from cujit import njit


@njit
def f(n):
    def fact(x):  # error: UnsupportedError: Unsupported use of cell variable encountered
        if x <= 1:
            return 1
        return x * fact(x - 1)
    return fact(n)


f(5)
