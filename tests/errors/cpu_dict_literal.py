from cujit import vectorize


@vectorize(['float64(float64)'])
def f(x):
    d = {1: x}  # error: UnsupportedError: dict literals are not supported in a CPU ufunc (@vectorize) yet
    return x
