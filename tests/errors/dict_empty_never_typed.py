from cujit import njit


@njit
def f():
    d = {}  # error: TypingError: Cannot infer the type of variable 'd', have imprecise type: DictType[undefined,undefined]
    return len(d)


f()
