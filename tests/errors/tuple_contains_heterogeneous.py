from cujit import njit


@njit
def contains(x, t):
    return x in t  # error: TypingError: No implementation of function contains found for signature: contains(Tuple(int64, float64), float64)


contains(2.5, (1, 2.5))
