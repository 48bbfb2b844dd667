"""Sets in @jit code (CPU), pinned against Numba 0.68's @njit: literals, set(), set(iterable),
add/remove/discard/update, in, len, the set algebra as methods, operators and in-place forms,
the comparisons, KeyError as Numba raises it, set arguments (reflected: the caller's set sees
the changes) and results. What depends on a set's order (iteration, pop) is refused: Numba
visits a set in its own hash-table order, which cujit does not reproduce."""
import pytest

from cujit import njit
from cujit.errors import UnsupportedError


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


def test_iteration_refused():
    @njit
    def f():
        s = {3, 1, 2}
        r = 0
        for x in s:  # Numba gives 123 (its hash order); insertion order would give 312
            r = r * 10 + x
        return r

    with pytest.raises(UnsupportedError, match="iterating over a set is not supported yet"):
        f()


def test_pop_refused():
    @njit
    def f():
        s = {3, 1, 2}
        return s.pop()

    with pytest.raises(UnsupportedError, match="set.pop"):
        f()
