# target: sim
import numpy as np
from cujit import vectorize


@vectorize(['float64(float64)'])
def f(x):  # error: TypingError: No conversion from none to float64: f() returns None on some paths
    if x > 0:
        return x
    return None
