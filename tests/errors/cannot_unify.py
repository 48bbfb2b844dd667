from cujit import vectorize


# A straight-line `y = 1; y = (x, x)` is two versions of y (Numba's SSA): only versions that meet
# where y is then read must unify.
@vectorize(['float32(float32)'], target='cuda')
def f(x):
    y = 1
    if x > 0:
        y = (x, x)
    z = y  # error: TypingError: Cannot unify int64 and UniTuple(float32 x 2) for 'y': the values it is given on lines 8 and 10 both reach this use
    return x
