"""Sets in @jit code (CPU), pinned against Numba 0.68's @njit: literals, set(), set(iterable),
add/remove/discard/update, in, len, the set algebra as methods, operators and in-place forms,
the comparisons, KeyError as Numba raises it, set arguments (reflected: the caller's set sees
the changes) and results. The order a set iterates in (Numba's own table order) is pinned in
tests/test_set_order.py."""
import pytest

from cujit import njit


def test_algebra_and_operators():
    @njit
    def f():
        s = {1, 2, 3}
        t = set()
        t.add(3)
        t.add(4)
        u = s | t
        s |= t
        return len(u), 4 in s, len(s & t), len(s - t), len(s ^ t), s.issuperset(t), t <= s, len(set([1, 1, 2]))

    assert f() == (4, True, 2, 2, 2, True, True, 2)


def test_methods():
    @njit
    def f():
        s = {1, 2}
        s.discard(7)
        s.discard(1)
        s.update({5, 6})
        a = s.union({9})
        b = s.intersection({5, 9})
        c = s.difference({5})
        d = s.symmetric_difference({5, 10})
        return (len(s), len(a), len(b), len(c), len(d), s.isdisjoint({9}), {1, 2} == {2, 1}, {1} < {1, 2},
                s.issubset(a), 10 in d, 5 in d)

    assert f() == (3, 4, 1, 2, 3, True, True, True, True, True, False)


def test_in_place_updates():
    @njit
    def f():
        s = {1, 2, 3}
        s.intersection_update({2, 3, 4})
        t = {1, 2, 3}
        t.difference_update({1})
        u = {1, 2}
        u ^= {2, 3}
        v = {1, 2}
        v &= {2}
        w = {1, 2}
        w -= {1}
        return s, t, u, v, w

    assert f() == ({2, 3}, {2, 3}, {1, 3}, {2}, {2})


def test_remove_missing_raises_keyerror():
    @njit
    def f():
        s = {1, 2}
        s.remove(5)

    with pytest.raises(KeyError) as e:
        f()
    assert e.value.args == ("set.remove(): key not in set",)  # Numba's


def test_result_is_a_set():
    @njit
    def f():
        return {1, 2, 3}, {1.5}

    assert f() == ({1, 2, 3}, {1.5})


def test_reflected_set_argument():
    @njit
    def f(s):
        s.add(10)
        return len(s)

    x = {1, 2}
    assert f(x) == 3
    assert x == {1, 2, 10}  # Numba reflects the change


def test_empty_set_argument_refused():
    @njit
    def f(s):
        return 2 in s

    with pytest.raises(ValueError, match="cannot compute fingerprint of empty set"):  # Numba's
        f(set())
