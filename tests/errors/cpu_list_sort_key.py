from cujit import njit


# Keys are compared with <, which complex numbers lack (Numba refuses them too).
@njit
def f(l):
    return sorted(l, key=lambda v: v * 1j)  # error: UnsupportedError: a sort key function returning complex128 is not supported


f([3, -1, 2])
