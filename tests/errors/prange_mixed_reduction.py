from cujit import njit, prange


@njit(parallel=True)
def mixed(n):
    s = 1
    for i in prange(n):
        s += i
        s *= 2  # error: UnsupportedError: 's' is combined with both + (line 8) and * in this prange loop
    return s


mixed(10)
