from cujit import cuda, vectorize


@cuda.jit(device=True)
def g(a, b):  # error: TypingError: called with 1 argument(s) but g() takes 2
    return a + b


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return g(x)
