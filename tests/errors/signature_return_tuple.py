from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return x, x  # error: TypingError: cannot return a UniTuple(float32 x 2) from a function declared to return float32
