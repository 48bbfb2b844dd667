# target: sim
from cujit import njit


# sum() is rewritten into a loop before its statement, which a while loop's test cannot have.
@njit
def f(l):
    while sum(l) < 10:  # error: UnsupportedError: sum() here (a while loop's test
        l.append(1)
    return l


f([1])
