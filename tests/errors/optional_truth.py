# target: sim
from cujit import njit


@njit
def maybe(x):
    if x > 0:
        return x


@njit
def g(x):
    if maybe(x):  # error: TypingError: the truth value of a value that may be None (OptionalType(int64)) is not supported
        return 1
    return 0


g(1)
