from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    s = "a" + "b"  # error: UnsupportedError: strings are not supported in GPU code (here a CUDA ufunc
    return x
