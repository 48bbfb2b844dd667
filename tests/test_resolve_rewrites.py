"""Rewrites the resolve step makes before typing (src/compiler/resolve.cpp): Python's constant
folding of the parsed literals, operator-module calls named by globals, np.newaxis. An
operator-module call is a call Numba types by its arguments' types (int64 << int64 wraps), never
a literal Python folds: only `1 << 63` as written is the uint64 2**63. The expectations were
computed by Numba 0.68 on the same code."""
import operator
from operator import add as ADD

import numpy as np

from cujit import njit

LSHIFT = operator.lshift


@njit
def operator_calls_are_not_folded():
    return (operator.lshift(1, 63), ADD(2**62, 2**62), LSHIFT(1, 62), 1 << 63, operator.pow(10, -3), 10 ** -3,
            operator.mul(3, 1.5), operator.floordiv(-7, 2), operator.truediv(1, 4))


def test_operator_calls_of_literals_are_typed_not_folded():
    r = operator_calls_are_not_folded()
    assert r == (-9223372036854775808, -9223372036854775808, 4611686018427387904, 9223372036854775808, 0, 0.001,
                 4.5, -4, 0.25)
    assert type(r[4]) is int and type(r[5]) is float


@njit
def folded_inside_operator_call():
    return operator.add(1 << 62, 2 ** 3), operator.neg(-(2 ** 10))


def test_literals_inside_an_operator_call_are_folded():
    assert folded_inside_operator_call() == (4611686018427387912, 1024)


@njit
def setitem_and_newaxis(a):
    operator.setitem(a, 0, 7.5)
    return a[np.newaxis, :, np.newaxis].shape, a[:, np.newaxis].shape


def test_setitem_statement_and_newaxis():
    a = np.zeros(3)
    assert setitem_and_newaxis(a) == ((1, 3, 1), (3, 1))
    np.testing.assert_array_equal(a, [7.5, 0, 0])


@njit
def apply2(f, a, b):
    return f(a, b)


@njit
def apply_set(f, a, i, v):
    f(a, i, v)


@njit
def operators_through_parameters(a):
    apply_set(operator.setitem, a, 0, 4.0)
    return apply2(operator.lshift, 1, 62), apply2(operator.sub, 5, 7.5), apply2(operator.lt, 1, 2)


def test_operator_functions_passed_as_values():
    a = np.zeros(2)
    assert operators_through_parameters(a) == (4611686018427387904, -2.5, True)
    np.testing.assert_array_equal(a, [4.0, 0.0])
