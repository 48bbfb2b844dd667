from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    s = "a" + "b"  # error: UnsupportedError: string operations are not supported in compiled code
    return x
