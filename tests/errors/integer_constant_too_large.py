# target: sim
from cujit import njit


@njit
def f(x):
    return x + 2 ** 62 * 4  # error: TypingError: integer constant too large for int64 or uint64


f(1)
