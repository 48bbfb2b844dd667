from cujit import njit, prange


@njit(parallel=True)
def first_negative(a):
    found = -1
    for i in prange(a.size):
        if a[i] < 0:
            break  # error: UnsupportedError: break out of a prange loop
    return found


first_negative(__import__("numpy").arange(10.0))
