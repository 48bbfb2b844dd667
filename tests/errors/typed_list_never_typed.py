from cujit import njit, typed


@njit
def f():
    l = typed.List()  # error: TypingError: Cannot infer the type of variable 'l', have imprecise type: ListType[undefined]
    return len(l)


f()
