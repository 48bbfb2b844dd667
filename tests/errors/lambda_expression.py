from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    g = lambda y: y  # error: UnsupportedError: lambda
    return x
