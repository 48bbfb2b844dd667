from cujit import cuda, vectorize


@cuda.jit(device=True)
def g(a):
    return a * 2


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return g(x, x)  # error: TypingError: g() takes 1 positional argument but 2 were given
