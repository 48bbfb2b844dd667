from cujit import njit, typed


@njit
def f():
    a = typed.List([1])
    b = typed.List([2])
    return a + b  # error: TypingError: No implementation of function Function(<built-in function add>) found for signature: (ListType[int64], ListType[int64])


f()
