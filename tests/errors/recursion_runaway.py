from cujit import cuda, vectorize


@cuda.jit(device=True)
def runaway(n):
    return runaway(n - 1)  # error: TypingError: cannot type infer runaway recursion


@vectorize(['int64(int64)'], target='cuda')
def f(x):
    return runaway(x)
