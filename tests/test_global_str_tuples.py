"""Global tuples holding strs (and nested tuples of strs and ints) are constants in @jit code, as in
Numba 0.68: read, indexed (constant and run-time indices, slices), iterated, compared, searched
with `in`, returned. GPU code refuses strs (tests/errors/gpu_global_tuple_of_str.py). Values
pinned from Numba."""
from cujit import njit

T = ("ab", "cd", ("x", 1))
S = ("a", "bb", "ccc")
N = (("a", 1), ("b", 2))


def test_index_and_concatenate():
    @njit
    def f():
        return T[0] + T[1] + T[2][0]

    assert f() == "abcdx"


def test_return_nested():
    @njit
    def f():
        return T

    @njit
    def g():
        return N[1]

    assert f() == ("ab", "cd", ("x", 1))
    assert g() == ("b", 2)


def test_iterate_and_run_time_index():
    @njit
    def total():
        n = 0
        for s in S:
            n += len(s)
        return n

    @njit
    def at(i):
        return S[i]

    @njit
    def pairs():
        t = 0
        for k, v in N:
            t += v + len(k)
        return t

    assert total() == 6 and at(2) == "ccc" and at(-3) == "a" and pairs() == 5


def test_compare_search_slice():
    @njit
    def f(x):
        return x in S, S == ("a", "bb", "ccc"), S[1] == "bb", len(S), S[-1], S[1:]

    @njit
    def find(s):
        for i in range(len(S)):
            if S[i] == s:
                return i
        return -1

    assert f("bb") == (True, True, True, 3, "ccc", ("bb", "ccc"))
    assert f("zz")[0] is False
    assert find("ccc") == 2 and find("q") == -1
