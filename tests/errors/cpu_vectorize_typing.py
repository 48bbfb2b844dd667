# target: sim
from cujit import vectorize


@vectorize(['float64(float64)'])
def f(x):
    y = 1
    while x > 0:
        print(y)  # error: TypingError: Cannot unify int64 and UniTuple(float64 x 2) for 'y'
        y = (x, x)
        x -= 1.0
    return x
