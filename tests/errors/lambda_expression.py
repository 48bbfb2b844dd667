from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return (lambda y: y)(x)  # error: UnsupportedError: lambda
