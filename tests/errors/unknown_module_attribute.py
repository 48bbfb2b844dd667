import math
from cujit import vectorize


@vectorize(['float32(float32)'], target='cuda')
def f(x):
    return math.sqroot(x)  # error: TypingError: Unknown attribute 'sqroot' of module 'math'
