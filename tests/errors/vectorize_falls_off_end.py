import numpy as np
from cujit import vectorize


@vectorize(['int64(int64)'], target='cuda')
def f(x):  # error: TypingError: No conversion from none to int64: f() can reach its end without a return
    if x > 0:
        return x * 7


f(np.arange(4, dtype=np.int64))
