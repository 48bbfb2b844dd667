"""The builtin pow(a, b) is a ** b, as in Numba 0.68; and a call (pow, operator.pow, operator.add,
...) is computed at run time with Numba's types, never folded as Python folds a literal operator
expression: pow(2, -1) is int ** int (0 in Numba), while `2 ** -1` is the float 0.5 that CPython
folds before Numba sees it; operator.add(2**62, 2**62) wraps in int64. Values pinned from Numba."""
import operator

from cujit import njit


def test_pow_builtin():
    @njit
    def f(x):
        return pow(x, 3), pow(2.0, x), pow(x, -1)

    assert f(4) == (64, 16.0, 0)


def test_calls_of_literals_are_not_folded():
    @njit
    def f(x):
        return operator.pow(2, -1), operator.add(1 << 62, 1 << 62), pow(2, -1), operator.truediv(1, 2), 2 ** -1

    got = f(1)
    assert got == (0, -9223372036854775808, 0, 0.5, 0.5)
    assert type(got[0]) is int and type(got[2]) is int and type(got[4]) is float
