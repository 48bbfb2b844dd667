from cujit import cuda, guvectorize


@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')
def f(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * cuda.warpsize  # error: TypingError: cuda.warpsize is GPU code: it cannot be used in a CPU gufunc (@guvectorize); compile the function with @guvectorize(..., target='cuda') instead
