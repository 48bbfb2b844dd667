from cujit import njit


@njit
def f(x):
    e = KeyError("k")
    if x:
        e = ValueError("v")
    raise e  # error: UnsupportedError: Unsupported constraint encountered: raise e


f(1)
