from cujit import njit, typed


@njit
def f():
    l = typed.List()
    l.append(1)
    l.append(2.5)  # error: TypingError: No implementation of function impl_append found for signature: impl_append(ListType[int64], float64): cannot safely cast float64 to int64. Please cast explicitly.
    return l


f()
