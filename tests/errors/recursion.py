from cujit import cuda, vectorize


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)  # error: TypingError: recursive calls are not supported


@vectorize(['int64(int64)'], target='cuda')
def f(x):
    return fact(x)
