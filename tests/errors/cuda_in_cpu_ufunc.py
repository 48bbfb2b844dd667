from cujit import cuda, vectorize


@vectorize(['float64(float64)'])
def f(x):
    cuda.syncthreads()  # error: TypingError: cuda.syncthreads() is GPU code: it cannot be called from a CPU ufunc (@vectorize); compile the function with @vectorize(..., target='cuda') instead
    return x
