from cujit import njit
import numpy as np


@njit
def f(p):
    return np.random.multinomial(2.5, p)  # error: TypingError: np.random.multinomial(): n should be an integer, got float64


f(np.array([0.5, 0.5]))
