# target: sim
from cujit import vectorize


@vectorize(['float64(float64)'])
def f(x):
    y = 1
    y = (x, x)  # error: TypingError: Cannot unify int64 and UniTuple(float64 x 2) for 'y'
    return x
