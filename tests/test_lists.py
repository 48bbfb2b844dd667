"""Lists in @jit code (CPU), pinned against Numba 0.68's @njit on the same functions: literals,
list(), comprehensions, the methods, indexing and slicing with Numba's exceptions, iteration,
+ and *, comparisons, lists returned to Python (a new list) and reflected list arguments (the
caller sees the changes). Lists made in compiled code are freed (reference counts)."""

import numpy as np
import pytest

from cujit import njit
from memory_probe import held_bytes


def literal_append(a):
    l = [1, 2, 3]
    l.append(a)
    return l


def empty_append():
    l = []
    for i in range(3):
        l.append(i * 1.5)
    return l


def widen():
    l = [1]
    l.append(2.5)
    return l


def comp(n):
    return [i * i for i in range(n) if i % 2]


def comp_nested(n):
    return [i * 10 + j for i in range(n) for j in range(i)]


def comp_tuple_target(a):
    return [x + y for x, y in [(1, 2), (3, 4)]] + [a]


def comp_of_comp(n):
    s = 0
    for row in [[j for j in range(i)] for i in range(n)]:
        s += len(row)
    return s


def methods():
    l = [3, 1, 2]
    l.sort()
    l.reverse()
    l.insert(0, 9)
    l.insert(-10, 7)
    l.insert(100, 8)
    x = l.pop()
    y = l.pop(1)
    l.remove(2)
    return l, x, y, l.index(1), l.count(7), len(l), 1 in l, 5 in l, 5 not in l


def slices():
    l = [1, 2, 3, 4, 5]
    l[1:3] = [9]
    return l[::-1], l + [1], l * 2, l[1:], l[-2:], l[:-1], l[::2]


def neg_index(l):
    return l[-1] + l[0]


def iterate(l):
    s = 0.0
    for x in l:
        s += x
    return s


def returns_arg(l):
    return l


def tuples():
    return [(1, 2.0), (3, 4.0)]


def nested():
    l = [[1], [2, 3]]
    l[0].append(5)
    return l


def construct(a):
    return list(range(4)), list((1, 2)), [1, 2].copy(), list(a), sorted([3, 1, 2])


def extend():
    l = [1, 2]
    l.extend([3, 4])
    l.clear()
    l.extend([5])
    return l


def compare():
    return [1, 2] == [1, 2], [1, 2] != [1, 3], [1, 2] < [1, 3], [2] > [1, 5]


def list_arg_sum(l):
    t = 0
    for i in range(len(l)):
        t += l[i]
    return t


def alias():
    a = [1, 2]
    b = a
    b.append(3)
    return a


def helper(l):
    return len(l)


def in_call(n):
    return jhelper([i for i in range(n)])


jhelper = njit(helper)


def sort_float():
    l = [2.5, -1.0, 3.0]
    l.sort()
    return l


def bools():
    return [True, False]


# Numba's results for the same calls.
CASES = [
    (literal_append, (4,), [1, 2, 3, 4]),
    (empty_append, (), [0.0, 1.5, 3.0]),
    (widen, (), [1.0, 2.5]),
    (comp, (7,), [1, 9, 25]),
    (comp_nested, (4,), [10, 20, 21, 30, 31, 32]),
    (comp_tuple_target, (5,), [3, 7, 5]),
    (comp_of_comp, (5,), 10),
    (methods, (), ([7, 3, 1], 8, 9, 2, 1, 3, True, False, True)),
    (slices, (), ([5, 4, 9, 1], [1, 9, 4, 5, 1], [1, 9, 4, 5, 1, 9, 4, 5], [9, 4, 5], [4, 5], [1, 9, 4], [1, 4])),
    (neg_index, ([1, 2, 3],), 4),
    (iterate, ([1.5, 2.5],), 4.0),
    (returns_arg, ([1, 2],), [1, 2]),
    (tuples, (), [(1, 2.0), (3, 4.0)]),
    (nested, (), [[1, 5], [2, 3]]),
    (construct, (np.arange(3.0),), ([0, 1, 2, 3], [1, 2], [1, 2], [0.0, 1.0, 2.0], [1, 2, 3])),
    (extend, (), [5]),
    (compare, (), (True, True, True, True)),
    (list_arg_sum, ([1, 2, 3],), 6),
    (alias, (), [1, 2, 3]),
    (in_call, (4,), 4),
    (sort_float, (), [-1.0, 2.5, 3.0]),
    (bools, (), [True, False]),
]


def same(a, b):
    """Equal, with the same Python types item by item (1 is not 1.0 here)."""
    if isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("fn,args,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_list_results(fn, args, expected):
    got = njit(fn)(*args)
    assert same(got, expected), (got, expected)


def bad_index():
    l = [1, 2]
    return l[5]


def bad_set():
    l = [1, 2]
    l[5] = 1


def bad_pop():
    l = [1]
    l.pop()
    return l.pop()


def bad_pop_index():
    l = [1, 2]
    return l.pop(5)


def bad_index_of():
    l = [1]
    return l.index(5)


def bad_remove():
    l = [1]
    l.remove(5)


def bad_ext_slice():
    l = [1, 2, 3]
    l[0:3:2] = [1]


def bad_step():
    l = [1, 2, 3]
    return l[::0]


ERRORS = [
    (bad_index, IndexError, "getitem out of range"),
    (bad_set, IndexError, "setitem out of range"),
    (bad_pop, IndexError, "pop from empty list"),
    (bad_pop_index, IndexError, "pop index out of range"),
    (bad_index_of, ValueError, "value not in list"),
    (bad_remove, ValueError, "list.remove(x): x not in list"),
    (bad_ext_slice, ValueError, "cannot resize extended list slice with step != 1"),
    (bad_step, ValueError, "slice step cannot be zero"),
]


@pytest.mark.parametrize("fn,exc,msg", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_list_errors(fn, exc, msg):
    with pytest.raises(exc) as info:
        njit(fn)()
    assert str(info.value) == msg


def reflect(l):
    l.append(7)
    l[0] = 9
    return len(l)


def reflect_float(l):
    l.append(0.5)


def reflect_cast(l):
    l[0] = 2.7


def test_reflected_lists():
    x = [1, 2]
    assert njit(reflect)(x) == 3
    assert same(x, [9, 2, 7])
    y = [1.5]
    njit(reflect_float)(y)
    assert same(y, [1.5, 0.5])
    z = [1]
    njit(reflect_cast)(z)
    assert same(z, [2])
    w = [1, 2]
    assert njit(returns_arg)(w) is w  # Numba returns the caller's list itself


def test_reflected_list_refusals():
    f = njit(returns_arg)
    with pytest.raises(ValueError, match="cannot compute fingerprint of empty list"):
        f([])
    with pytest.raises(TypeError, match="can't unbox heterogeneous list: int64 != float64"):
        f([1, 2.5])
    with pytest.raises(TypeError, match="cannot reflect element of reflected container"):
        f([[1]])


def churn(n):
    l = [i for i in range(n)]
    m = [l, [1, 2]]
    m[0].append(3)
    return len(m[0]) + len(l[1:])


def test_lists_are_freed():
    f = njit(churn)
    assert f(1000) == 2001  # m[0] is l: 1001 items, and l[1:] 1000
    before = held_bytes() // 1024
    for _ in range(10000):
        f(1000)
    grown_kib = held_bytes() // 1024 - before
    # Leaked, 10,000 calls would keep about 10,000 * 3 * 8 KiB = 240 MB.
    assert grown_kib < 50 * 1024, grown_kib


def imul():
    a = [1, 2]
    b = a
    b *= 2
    return a


def aug_alias():
    a = [1, 2]
    b = a
    b += [3]
    return a


def arrays(n):
    l = [np.full(2, i * 1.0) for i in range(n)]
    return l, l[1].sum()


def enum_zip(l):
    s = 0
    for i, x in enumerate(l):
        s += i * x
    for x, y in zip(l, l):
        s += x * y
    return s


def tuple_items(l):
    s = 0.0
    for a, b in l:
        s += a * b
    l.append((5, 0.5))
    return s


def item_update(n):
    l = [0] * n
    for i in range(n):
        l[i] += i
    return l


def test_list_more():
    assert same(njit(imul)(), [1, 2, 1, 2])
    assert same(njit(aug_alias)(), [1, 2, 3])
    arrs, total = njit(arrays)(3)
    assert total == 2.0 and len(arrs) == 3
    for i, a in enumerate(arrs):
        np.testing.assert_array_equal(a, np.full(2, float(i)))
    assert njit(enum_zip)([1, 2, 3]) == 22
    x = [(1, 2.0), (3, 4.0)]
    assert njit(tuple_items)(x) == 14.0
    assert same(x, [(1, 2.0), (3, 4.0), (5, 0.5)])
    assert same(njit(item_update)(3), [0, 1, 2])


def tuple_conversion():
    l = [(1, 2.0), (3, 4)]
    l.append((5, 6))
    l[0] = (7, 8)
    return l


def test_list_tuple_items_convert():
    assert same(njit(tuple_conversion)(), [(7, 8.0), (3, 4.0), (5, 6.0)])


# A comprehension's loops run before its statement (it is hoisted): what the statement evaluates
# before the comprehension must still happen first, as in Python (Numba 0.68 gives these).
def _pop_then_comprehend():
    l = [1, 2, 3]
    return l.pop(), [x for x in l]


def _len_around_comprehension():
    l = [1, 2, 3]
    return len(l) + len([l.pop() for _ in range(1)]) + len(l)


def _stable_parts_stay():
    l = [1, 2, 3]
    n = 2
    return n, l, [x * n for x in range(n)]


def _pop_then_sum():
    l = [1, 2, 3]
    return l.pop(), sum(l)


def _pop_then_sorted_by_key():
    l = [3, 1, 2]
    return l.pop(), sorted(l, key=lambda v: -v)


@pytest.mark.parametrize("fn, expected", [
    (_pop_then_comprehend, (3, [1, 2])),
    (_pop_then_sum, (3, 3)),
    (_pop_then_sorted_by_key, (2, [3, 1])),
    (_len_around_comprehension, 6),
    (_stable_parts_stay, (2, [1, 2, 3], [0, 2])),
])
def test_comprehension_runs_in_evaluation_order(fn, expected):
    assert njit(fn)() == expected
    assert fn() == expected
