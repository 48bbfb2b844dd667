from cujit import vectorize


# A lambda bound to a name is a nested function (tests/test_nested_functions.py); elsewhere it is
# refused.
@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return (lambda y: y)(x)  # error: UnsupportedError: lambda
