import math

from cujit import njit


@njit("float64(float64)")
def f(x):
    return math.gcd(x, 4)  # error: TypingError: math.gcd() needs integers, got float64
