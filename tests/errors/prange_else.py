from cujit import njit, prange


@njit(parallel=True)
def count(n):
    s = 0
    for i in prange(n):  # error: UnsupportedError: a prange loop cannot have an else clause
        s += 1
    else:
        s = -1
    return s


count(10)
