"""Lists in @jit code, the rest of issue 19's list items: sort(reverse=) and sorted(l,
reverse=), the truth of a list (`if l:`), min()/max() of a list, list(tuple), comparisons of
lists, lists of lists. The expectations were computed by Numba 0.68 on the same code. A key=
function is refused (tests/errors/cpu_list_sort_key.py)."""
import math

import pytest

from cujit import njit


@njit
def sort_reverse(n):
    l = [3, 1, 2, n]
    l.sort(reverse=True)
    return l[0], l[1], l[2], l[3]


@njit
def sorted_reverse(n):
    l = [3, 1, 2, n]
    m = sorted(l, reverse=True)
    k = sorted(l, reverse=False)
    return m[0], m[3], l[0], k[0]


@njit
def truth(n):
    l = [1]
    l.pop()
    a = 1 if l else 0
    l.append(n)
    b = 1 if l else 0
    c = 0
    while l:
        c += l.pop()
    return a, b, c


@njit
def min_max(l):
    return min(l), max(l)


@njit
def min_max_literal(n):
    l = [3.5, 1.0, n]
    return min(l), max(l)


@njit
def min_of_empty(n):
    l = [n]
    l.pop()
    return min(l)


@njit
def compare(n):
    a = [1, 2, n]
    b = [1, 2, 3]
    return a == b, a != b, a < b, a <= b, a > b, a >= b


@njit
def from_tuple(n):
    l = list((1, 2, n))
    return len(l), l[2]


@njit
def lists_of_lists(n):
    l = [[1, 2], [3, n]]
    l[1].append(9)
    s = 0
    for r in l:
        for v in r:
            s += v
    m = [[i * j for j in range(3)] for i in range(n)]
    return s, len(l[1]), m[2][2], len(m)


def test_sort_reverse():
    assert sort_reverse(0) == (3, 2, 1, 0)
    assert sort_reverse(5) == (5, 3, 2, 1)
    assert sorted_reverse(7) == (7, 1, 3, 1)


def test_truth_of_a_list():
    assert truth(3) == (0, 1, 3)


def test_min_max_of_a_list():
    assert min_max([3, 1, 7]) == (1, 7)
    assert min_max_literal(7.0) == (1.0, 7.0)
    r = min_max([float("nan"), 1.0])  # Python's comparisons: a NaN first is kept
    assert math.isnan(r[0]) and math.isnan(r[1])
    assert min_max([1.0, float("nan")]) == (1.0, 1.0)
    with pytest.raises(StopIteration):
        min_of_empty(1)


def test_list_comparisons_and_list_of_tuple():
    assert compare(3) == (True, False, False, True, False, True)
    assert compare(4) == (False, True, False, False, True, True)
    assert from_tuple(5) == (3, 5)


def test_lists_of_lists():
    assert lists_of_lists(4) == (19, 3, 4, 4)
