"""Dicts in @jit code (CPU), pinned against Numba 0.68's @njit on the same functions: `{}` typed
by its first insertion, literals, dict(), d[k], d[k] = v, del d[k], in, len, the methods, keys
of ints, floats and tuples, iteration in insertion order, KeyError as Numba raises it, hash()
equal to CPython's, dicts returned to Python as a typed.Dict, a plain dict argument refused."""
import numpy as np
import pytest

from cujit import njit, typed
from cujit.errors import TypingError


def test_empty_dict_typed_by_first_insertion():
    @njit
    def f():
        d = {}
        d[1] = 2.0
        d[3] = 4  # an int into a float64 dict: cast, as Numba
        return d[1] + d[3], len(d)

    assert f() == (6.0, 2)


def test_dict_result_is_a_typed_dict():
    @njit
    def f():
        d = {}
        d[1] = 2.0
        d[3] = 4
        return d

    r = f()
    assert isinstance(r, typed.Dict)
    assert repr(r) == "DictType[int64,float64]<iv=None>({1: 2.0, 3: 4.0})"  # Numba's
    assert dict(r) == {1: 2.0, 3: 4.0}


def test_missing_key_raises_keyerror_with_the_key():
    @njit
    def f(k):
        d = {1: 2.0, 3: 4.5}
        return d[k]

    with pytest.raises(KeyError) as e:
        f(5)
    assert e.value.args == (5,)  # Numba: KeyError(5)


def test_float_key_keyerror():
    @njit
    def f():
        d = {1.5: 3}
        return d[2.5]

    with pytest.raises(KeyError) as e:
        f()
    assert str(e.value) == "2.5"


def test_del_pop_popitem_keyerrors():
    @njit
    def delete():
        d = {1: 2.0}
        del d[7]

    @njit
    def pop():
        d = {1: 2.0}
        return d.pop(9)

    @njit
    def popitem():
        d = {1: 2.0}
        d.popitem()
        return d.popitem()

    for f in (delete, pop, popitem):
        with pytest.raises(KeyError) as e:
            f()
        assert str(e.value) == ""  # Numba's: no message


def test_methods():
    @njit
    def f():
        d = {1: 2.0, 3: 4.5}
        return d.get(1), d.get(5, -1.0), d.get(7), d.setdefault(8, 1.0), d.pop(1, 0.0), 3 in d, len(d)

    assert f() == (2.0, -1.0, None, 1.0, 2.0, True, 2)


def test_iteration_copy_update_clear():
    @njit
    def f():
        d = {1: 2.0, 3: 4.5}
        e = d.copy()
        e[10] = 1.0
        s = 0.0
        for k in d:
            s += k
        for k, v in d.items():
            s += k * v
        for v in d.values():
            s += v
        for k in d.keys():
            s += k
        d.update(e)
        n = len(d)
        d.clear()
        return s, n, len(d), len(e)

    assert f() == (30.0, 3, 0, 3)


def test_insertion_order_after_deletes():
    @njit
    def f(n):
        d = dict()
        for i in range(n):
            d[i] = i * i
        for i in range(0, n, 2):
            del d[i]
        d[0] = -1  # re-inserted: last
        return d.keys(), d.popitem()

    keys, last = f(1000)
    assert keys == list(range(1, 1000, 2)) + [0]
    assert last == (0, -1)


def test_equality():
    @njit
    def f():
        return {1: 2, 3: 4} == {3: 4, 1: 2}, {1: 2} != {1: 3}

    assert f() == (True, True)


def test_tuple_keys():
    @njit
    def f():
        d = {(1, 2): 1.5}
        d[(3, 4)] = 2.0
        return d[(1, 2)], d[(3, 4)], (3, 4) in d, (4, 4) in d, d

    a, b, c, e, d = f()
    assert (a, b, c, e) == (1.5, 2.0, True, False)
    assert repr(d) == "DictType[UniTuple(int64 x 2),float64]<iv=None>({(1, 2): 1.5, (3, 4): 2.0})"


def test_array_values():
    @njit
    def f(a):
        d = {}
        d[1] = a
        d[2] = np.zeros(3)
        d[2][1] = 5.0
        return d[1].sum() + d[2].sum(), d

    s, d = f(np.arange(3.0))
    assert s == 8.0
    np.testing.assert_array_equal(d[2], [0.0, 5.0, 0.0])
    assert repr(d).startswith("DictType[int64,array(float64, 1d, C)]<iv=None>(")


def test_augmented_assignment_to_an_item():
    @njit
    def f():
        d = {1: 2}
        d[1] += 5
        return d[1]

    assert f() == 7


def test_hash_equals_cpython():
    @njit
    def f():
        return (hash(5), hash(-1), hash(2.5), hash((1, 2)), hash(1.0), hash(2**62), hash(-2**63), hash(True),
                hash((1.5, 3)), hash(np.inf), hash(0.1))

    expected = (5, -2, 1152921504606846978, -3550055125485641917, 1, 2, -4, 1, -3664374849202191498, 314159,
                230584300921369408)
    assert f() == expected
    assert expected == (hash(5), hash(-1), hash(2.5), hash((1, 2)), hash(1.0), hash(2**62), hash(-2**63), hash(True),
                        hash((1.5, 3)), hash(float("inf")), hash(0.1))


def test_plain_dict_argument_refused():
    @njit
    def f(d):
        return len(d)

    with pytest.raises(TypingError, match="non-precise type pyobject"):
        f({1: 2})


def test_many_items_and_growth():
    @njit
    def f(n):
        d = {}
        for i in range(n):
            d[(i, -i)] = i
        t = 0
        for i in range(n):
            t += d[(i, -i)]
        return t, len(d)

    assert f(5000) == (sum(range(5000)), 5000)


def test_nested_dicts():
    @njit
    def f():
        d = {1: {2: 3.0}}
        d[1][5] = 1.0
        return d

    assert repr(f()) == "DictType[int64,DictType[int64,float64]<iv=None>]<iv=None>({1: {2: 3.0, 5: 1.0}})"  # Numba's


def test_passed_to_another_function_and_aliased():
    @njit
    def g(d, k):
        return d[k]

    @njit
    def f():
        d = {1: 2.5}
        e = d
        e[3] = 1.0  # e is d
        return g(d, 1), len(d)

    assert f() == (2.5, 2)


def test_key_type_mismatch_refused():
    @njit
    def f():
        d = {1: 2}
        d[1.0] = 3  # Numba refuses a float key into an int64 dict
        return d

    with pytest.raises(TypingError, match=r"DictType\[int64,int64\]<iv=None>, float64"):
        f()
