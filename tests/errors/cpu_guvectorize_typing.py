# target: sim
from cujit import guvectorize


@guvectorize(['(float64[:], float64[:])'], '(n)->()')
def g(a, out):
    out[0] = a[1.5]  # error: TypingError: array indices must be integers, not float64
