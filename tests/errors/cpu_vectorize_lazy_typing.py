# target: sim
import numpy as np
from cujit import vectorize


@vectorize
def f(x):
    return x[0]  # error: TypingError: 'int64' object is not subscriptable


f(np.arange(3))
