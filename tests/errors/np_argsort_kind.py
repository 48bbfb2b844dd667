# target: sim
import numpy as np

from cujit import njit


@njit
def f(a):
    return np.argsort(a, kind='heapsort')  # error: TypingError: Unsupported argsort kind 'heapsort'


f(np.arange(3))
