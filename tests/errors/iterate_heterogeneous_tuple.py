from cujit import njit


@njit
def f(a):
    t = (a, 2, a)
    s = 0.0
    for v in t:  # error: UnsupportedError: iterating over a heterogeneous tuple (Tuple(float64, int64, float64)) is not supported
        s += v
    return s


f(1.5)
