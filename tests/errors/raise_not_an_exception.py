from cujit import njit


class NotAnException:
    pass


@njit
def f(x):
    raise NotAnException  # error: UnsupportedError: Encountered unsupported constant type used for exception


f(1)
