import collections

from cujit import njit

P = collections.namedtuple("P", ["x", "y"])


# Numba has no + for named tuples (a plain tuple's concatenation is not used in its place).
@njit
def f(p, q):
    return p + q  # error: TypingError: No implementation of function Function(<built-in function add>) found for signature: add(P(int64 x 2), UniTuple(int64 x 2))


f(P(1, 2), (3, 4))
