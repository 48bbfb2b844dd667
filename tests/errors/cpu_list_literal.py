from cujit import njit


@njit
def f(x):
    values = [x, x]  # error: UnsupportedError: list literals are not supported in a CPU function (@jit) yet; use a tuple, or an array (np.empty)
    return x


f(1.0)
