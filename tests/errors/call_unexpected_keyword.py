from cujit import cuda, vectorize


@cuda.jit(device=True)
def g(a, b=2.0):
    return a + b


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return g(x, c=x)  # error: TypingError: g() got an unexpected keyword argument 'c'
