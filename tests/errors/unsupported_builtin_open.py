from cujit import vectorize


@vectorize(['float64(float64)'])
def f(x):
    open("log.txt")  # error: UnsupportedError: the builtin open() is not supported in compiled code
    return x
