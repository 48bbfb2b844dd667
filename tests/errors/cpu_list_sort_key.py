from cujit import njit


@njit
def f(l):
    return sorted(l, key=abs)  # error: UnsupportedError: sorted() with a key function is not supported yet


f([3, -1, 2])
