"""Sets in @jit code follow Numba's own hash-table order (prelude/host_dict.h): iteration, pop(),
list(s), the set algebra, displays of constants (CPython's frozenset constants) and set arguments
and results. Every expected list below is what Numba 0.68's @njit gives for the same function."""
import inspect
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cujit import njit

@njit
def small():
    s = {3, 1, 2}
    return [x for x in s]
@njit
def neg_large():
    s = {-1, -2, -43, 5, -17, 2**40, -2**62, 2**62 + 3, 16, 32, 0}
    r = []
    for x in s:
        r.append(x)
    return r
@njit
def grow(n, step):
    s = set()
    for i in range(n):
        s.add(i * step)
    r = []
    for x in s:
        r.append(x)
    return r
@njit
def removals():
    s = set()
    for i in range(40):
        s.add(i * 3)
    for i in range(40):
        if i % 4 != 1:
            s.discard(i * 3)
    r = []
    for x in s:
        r.append(x)
    s.add(1000); s.add(17); s.add(4)
    for x in s:
        r.append(x)
    return r
@njit
def pops():
    s = set()
    for i in range(30):
        s.add(i * 5 - 40)
    r = []
    for i in range(12):
        r.append(s.pop())
    s.add(999); s.add(-999)
    for x in s:
        r.append(x)
    while len(s) > 0:
        r.append(s.pop())
    return r
@njit
def floats():
    s = {0.5, 1.5, -2.25, 1e10, 3.0, -0.0, 1e-300, 2.5e20, 7.125}
    r = []
    for x in s:
        r.append(x)
    return r
@njit
def tuples():
    s = {(1, 2), (3, 4), (0, 0), (-1, 5), (2, 1)}
    r = []
    for x in s:
        r.append(x)
    return r
@njit
def ops():
    a = set()
    b = set()
    for i in range(25):
        a.add(i * 7 % 50)
    for i in range(10):
        b.add(i * 11 % 60)
    out = []
    for s in (a | b, a & b, a - b, a ^ b, b | a, b & a, b - a, b ^ a, a.union(b), a.intersection(b), a.difference(b), a.symmetric_difference(b)):
        l = []
        for x in s:
            l.append(x)
        out.append(l)
    c = a.copy(); c |= b
    d = a.copy(); d &= b
    e = a.copy(); e -= b
    f = a.copy(); f ^= b
    for s in (c, d, e, f):
        l = []
        for x in s:
            l.append(x)
        out.append(l)
    g = b.copy(); g.update(a); l = []
    for x in g: l.append(x)
    out.append(l)
    return out
@njit
def ctors():
    l = [i * 13 % 40 for i in range(20)]
    s1 = set(l)
    s2 = set(range(50, 0, -3))
    s3 = {9, 8, 7, 6, 5, 4, 3, 2, 1, 100, 200, 300}
    s4 = set(s3)
    s5 = s3.copy()
    s3.discard(100)
    s6 = s3.copy()
    s7 = set((5, 4, 99, 1))
    out = []
    for s in (s1, s2, s3, s4, s5, s6, s7):
        out.append([x for x in s])
    return out
@njit
def listof():
    s = {40, 8, 24, 56, 1}
    return list(s)
@njit
def arg(s):
    r = [x for x in s]
    s.add(77)
    return r
@njit
def ret():
    s = set()
    for i in range(20):
        s.add(i * 8)
    return s
@njit
def clear_then():
    s = set()
    for i in range(100):
        s.add(i)
    s.clear()
    for i in (33, 1, 17):
        s.add(i)
    return [x for x in s]
@njit
def bools():
    s = {True, False}
    return [x for x in s]
@njit
def int32s(a):
    s = set()
    for x in a:
        s.add(x)
    return [x for x in s]


@pytest.mark.parametrize("fn, expected", [
    (small, [1, 2, 3]),
    (neg_large, [0, 1099511627776, 5, 4611686018427387907, 16, -2, -1, -4611686018427387904, -43, 32, -17]),
    (removals, [3, 75, 15, 87, 27, 99, 39, 111, 51, 63, 3, 4, 75, 15, 17, 87, 27, 99, 39, 1000, 111, 51, 63]),
    (pops, [65, 5, 70, 10, 75, 15, 80, 20, 85, -40, 25, 90, 0, -999, -35, 30, 95, -30, 35, 100, -25, 40, 105, 999, -20, 45, -15, 50, -10, 55, -5, 60, -35, 30, 95, -30, 35, 100, -25, 40, 105, 999, -20, 45, -15, 50, -10, 55, -999, -5, 60, 0]),
    (floats, [10000000000.0, -0.0, 1.5, 3.0, 7.125, 1e-300, 0.5, 2.5e+20, -2.25]),
    (tuples, [(1, 2), (3, 4), (2, 1), (0, 0), (-1, 5)]),
    (ops, [[0, 4, 5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 28, 33, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 33, 6, 11, 28], [4, 5, 7, 12, 13, 14, 18, 19, 20, 21, 26, 27, 34, 35, 40, 41, 42, 47, 48, 49], [4, 5, 7, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 4, 5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 28, 33, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 33, 6, 11, 28], [17, 22, 39, 55, 44], [4, 5, 7, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 4, 5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 28, 33, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 33, 6, 11, 28], [4, 5, 7, 12, 13, 14, 18, 19, 20, 21, 26, 27, 34, 35, 40, 41, 42, 47, 48, 49], [4, 5, 7, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 4, 5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 28, 33, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 33, 6, 11, 28], [4, 5, 7, 12, 13, 14, 18, 19, 20, 21, 26, 27, 34, 35, 40, 41, 42, 47, 48, 49], [4, 5, 7, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55], [0, 4, 5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 26, 27, 28, 33, 34, 35, 39, 40, 41, 42, 44, 47, 48, 49, 55]]),
    (ctors, [[0, 7, 8, 9, 10, 11, 12, 13, 21, 22, 23, 24, 25, 26, 34, 35, 36, 37, 38, 39], [2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50], [1, 2, 3, 4, 5, 6, 7, 200, 9, 8, 300], [1, 2, 3, 4, 5, 6, 7, 200, 9, 8, 300, 100], [1, 2, 3, 4, 5, 6, 7, 200, 9, 8, 100, 300], [1, 2, 3, 4, 5, 6, 7, 200, 9, 8, 300], [1, 99, 4, 5]]),
    (listof, [1, 24, 56, 8, 40]),
    (clear_then, [33, 1, 17]),
    (bools, [False, True]),
])
def test_set_order_as_numba(fn, expected):
    if not _fresh(fn):
        pytest.skip("loaded from a .pyc: its frozenset constants' order is not a fresh compile's, which the expectations are")
    assert fn() == expected


def _frozensets(code):
    return [list(k) for k in code.co_consts if isinstance(k, frozenset)] + [
        f for k in code.co_consts if inspect.iscode(k) for f in _frozensets(k)]


def _fresh(fn):
    # A display of constants is a frozenset constant whose order differs between a fresh compile
    # and a .pyc (which sorts it); cujit follows the code object as Numba does (the expectations
    # come from Numba running this file freshly compiled).
    src = textwrap.dedent(inspect.getsource(fn.py_func)).split("\n", 1)[1]
    return _frozensets(compile(src, "<fresh>", "exec")) == _frozensets(fn.py_func.__code__)


@pytest.mark.parametrize("n, step, expected", [
    (10, 1, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    (40, 1, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]),
    (17, 16, [0, 64, 128, 192, 16, 80, 144, 208, 256, 32, 96, 160, 224, 48, 112, 176, 240]),
    (30, 1048576, [0, 1048576, 2097152, 3145728, 23068672, 18874368, 25165824, 27262976, 29360128, 5242880, 6291456, 4194304, 9437184, 11534336, 13631488, 15728640, 17825792, 19922944, 22020096, 24117248, 26214400, 28311552, 30408704, 20971520, 7340032, 8388608, 10485760, 12582912, 14680064, 16777216]),
    (25, -3, [0, -63, -60, -57, -54, -51, -48, -45, -42, -39, -36, -33, -30, -27, -24, -21, -18, -15, -12, -9, -72, -6, -69, -3, -66]),
])
def test_growth_order(n, step, expected):
    assert grow(n, step) == expected


def test_arguments_and_results():
    ps = {5, 21, 37, 2, 1000}
    assert (arg(ps), list(ps)) == ([2, 5, 37, 21, 1000], [2, 37, 5, 1000, 77, 21])  # the reflected set: Numba's order, then its items added back
    assert list(ret()) == [0, 128, 8, 136, 16, 144, 24, 152, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120]  # the returned set built in the native order


@pytest.mark.parametrize("a, expected", [
    (np.array([5, -3, 16, 7, 100000, -2], dtype=np.int32), [16, 100000, 5, -2, 7, -3]),
    (np.array([0.1, 2.5, -7.75, 1e20], dtype=np.float32), [0.10000000149011612, 2.5, -7.75, 1.0000000200408773e+20]),
])
def test_narrow_items_order(a, expected):
    assert int32s(a) == expected


_STR_SETS = r'''
from cujit import njit

@njit
def strs(words):
    s = set()
    for w in words.split(' '):
        s.add(w)
    return [w for w in s]

@njit
def strpop():
    s = set()
    for w in ('alpha', 'beta', 'gamma', 'delta', 'é', 'ß', 'x', 'yy'):
        s.add(w)
    a = [w for w in s]
    p = s.pop()
    return a, p, [w for w in s], len(s)

print(strs('the quick brown fox jumps over the lazy dog again and again'))
print(strpop())
'''


def test_str_items_order():
    # A str hashes with the process's secret (CPython's and Numba's hash): the order is pinned for
    # PYTHONHASHSEED=0, in a process of its own.
    import os
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", _STR_SETS], env=env, capture_output=True, text=True, check=True).stdout
    lines = [l for l in out.splitlines() if not l.startswith("cujit:")]
    assert lines == [
        "['again', 'brown', 'over', 'quick', 'jumps', 'lazy', 'fox', 'the', 'and', 'dog']",
        "(['alpha', 'beta', 'yy', 'ß', 'delta', 'é', 'x', 'gamma'], 'alpha', "
        "['é', 'beta', 'x', 'gamma', 'ß', 'delta', 'yy'], 7)",
    ]


def listof_marshalled():
    s = {40, 8, 24, 56, 1}
    return list(s)


def test_display_follows_the_code_object():
    # A display of constants is a frozenset constant; a .pyc holds it in another order than a
    # fresh compile, and Numba's set follows the code object: so does cujit's.
    import marshal
    import types
    # Numba's answers for the two orders the constant can have (a fresh compile's, a .pyc's).
    numba = {(1, 40, 8, 56, 24): [1, 24, 56, 8, 40], (1, 8, 40, 56, 24): [1, 24, 56, 40, 8]}
    here = listof_marshalled
    loaded = types.FunctionType(marshal.loads(marshal.dumps(here.__code__)), globals(), "listof_marshalled")
    for f in (here, loaded):
        assert njit(f)() == numba[tuple(_frozensets(f.__code__)[0])]
    assert tuple(_frozensets(loaded.__code__)[0]) == (1, 8, 40, 56, 24)
