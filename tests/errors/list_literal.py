from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    values = [x, x]  # error: UnsupportedError: list literals are not supported in compiled code
    return x
