import collections

from cujit import njit

P = collections.namedtuple("P", ["x", "y"])


# Numba's message: the named tuple's type, NamedUniTuple here.
@njit
def f(p):
    return p.x + p.z  # error: TypingError: Unknown attribute 'z' of type P(int64 x 2)


f(P(1, 2))
