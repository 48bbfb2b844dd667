import numpy as np

from cujit import njit


@njit
def draw():
    return np.random.normal(0.0, sd=2.0)  # error: TypingError: numpy.random.normal() got an unexpected keyword argument 'sd'


draw()
