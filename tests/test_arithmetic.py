"""Python's arithmetic semantics in compiled code: floor division and modulo take the divisor's
sign, integer powers stay integers, true division of integers gives floats, chained comparisons,
and/or returning operands, ternaries, loops with break/continue/else."""
import numpy as np

from cujit import vectorize


@vectorize(['int64(int64, int64)'], target='cuda')
def ifloordiv(a, b):
    return a // b


@vectorize(['int64(int64, int64)'], target='cuda')
def imod(a, b):
    return a % b


@vectorize(['float64(float64, float64)'], target='cuda')
def ffloordiv(a, b):
    return a // b


@vectorize(['float64(float64, float64)'], target='cuda')
def fmod_py(a, b):
    return a % b


@vectorize(['int64(int64, int64)'], target='cuda')
def ipow(a, b):
    return a ** b


@vectorize(['float64(int64, int64)'], target='cuda')
def truediv(a, b):
    return a / b


@vectorize(['boolean(int64, int64, int64)'], target='cuda')
def chained(a, b, c):
    return a < b <= c


@vectorize(['float64(float64, float64)'], target='cuda')
def andor(a, b):
    return (a and b) + (a or b)


@vectorize(['int64(int64)'], target='cuda')
def loops(n):
    total = 0
    i = 0
    while True:
        i += 1
        if i % 2 == 0:
            continue
        if i > n:
            break
        total += i
    for j in range(10, 0, -3):
        total += j
    for k in range(n):
        if k == 100:
            break
    else:
        total += 1000
    return total


@vectorize(['int64(int64)'], target='cuda')
def bits(x):
    return (x << 3) ^ (x >> 1) | (x & 5) + ~x


def test_floor_division_and_modulo_signs(target):
    a = np.array([7, -7, 7, -7, 0, 5], dtype=np.int64)
    b = np.array([2, 2, -2, -2, 3, 0], dtype=np.int64)
    np.testing.assert_array_equal(ifloordiv(a, b), [3, -4, -4, 3, 0, 0])
    np.testing.assert_array_equal(imod(a, b), [1, 1, -1, -1, 0, 0])
    fa, fb = a[:5].astype(float) + 0.5, b[:5].astype(float)
    np.testing.assert_array_equal(ffloordiv(fa, fb), [x // y for x, y in zip(fa, fb)])
    np.testing.assert_array_equal(fmod_py(fa, fb), [x % y for x, y in zip(fa, fb)])


def test_integer_power_and_true_division(target):
    np.testing.assert_array_equal(ipow(np.array([2, 3, -2, 10]), np.array([10, 3, 3, 0])), [1024, 27, -8, 1])
    r = truediv(np.array([1, 7, -7]), np.array([2, 2, 2]))
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, [0.5, 3.5, -3.5])


def test_comparisons_and_boolean_operators(target):
    np.testing.assert_array_equal(chained(np.array([1, 2, 1]), np.array([2, 2, 3]), np.array([2, 3, 2])),
                                  [True, False, False])
    a, b = np.array([0.0, 2.0, 3.0]), np.array([5.0, 0.0, 4.0])
    np.testing.assert_array_equal(andor(a, b), [(x and y) + (x or y) for x, y in zip(a, b)])


def test_loops_break_continue_else(target):
    def ref(n):
        total, i = 0, 0
        while True:
            i += 1
            if i % 2 == 0:
                continue
            if i > n:
                break
            total += i
        for j in range(10, 0, -3):
            total += j
        for k in range(n):
            if k == 100:
                break
        else:
            total += 1000
        return total
    ns = np.array([0, 5, 50, 200], dtype=np.int64)
    np.testing.assert_array_equal(loops(ns), [ref(int(n)) for n in ns])


def test_bit_operators(target):
    xs = np.array([0, 1, 12345, -77], dtype=np.int64)
    np.testing.assert_array_equal(bits(xs), [(int(x) << 3) ^ (int(x) >> 1) | (int(x) & 5) + ~int(x) for x in xs])
