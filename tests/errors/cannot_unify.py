from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    y = 1
    y = (x, x)  # error: TypingError: Cannot unify int64 and UniTuple(float32 x 2) for 'y'
    return x
