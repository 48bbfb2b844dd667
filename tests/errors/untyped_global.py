from cujit import vectorize

table = {"a": 1}


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return x * table  # error: TypingError: Untyped global name 'table': cannot determine Numba type of <class 'dict'>
