from cujit import cuda, vectorize


@cuda.jit(device=True)
def g(a, b):
    return a + b


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return g(x)  # error: TypingError: g() missing 1 required positional argument: 'b'
