import numpy as np
from cujit import njit


@njit
def poke(a):
    a[0] = 65  # error: TypingError: Cannot modify readonly array of type: readonly array(uint8, 1d, C)


poke(np.frombuffer(b"z", np.uint8))
