from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    t = (x, x)
    return t + 1  # error: TypingError: unsupported operand type(s) for +: 'UniTuple(float32 x 2)' and 'int64'
