"""Issue 19's language leftovers against Numba 0.68: `==`/`!=` between unrelated types (a str,
None or a dict against anything else) are constants, not errors; sum() over lists, tuples,
ranges and arrays with start=; min()/max() of strs; inline lambdas passed to calls; sorted() and
list.sort() with key= (a lambda, a nested def or a jitted function) and reverse=; f-strings of
ints, bools and strs (Numba's str() of a float is a placeholder, '<object type:float64>', which
cujit refuses: tests/errors/f_string_of_float.py); print() of lists. Every
expectation is what Numba returns for the same code (its CPU target); the kernel test's, what
numba-cuda's simulator returns."""
import numpy as np
import pytest

from cujit import cuda, njit
from cujit.errors import TypingError, UnsupportedError


# ---- == and != between unrelated types ------------------------------------------------------

@njit
def str_eq_int(s, x):
    return (s == x, x == s, s != x, x != s)


@njit
def mixed_equalities(s, x, y):
    a = np.arange(2)
    return (s == 1.5, (1, 2) == s, s == (1, 2), [1] == s, s == a, a != s, 1j == s,
            None == x, x == None, None != x, None == None, None != None, s == None,  # noqa: E711
            {1: 2} == x, {1: 2} != x, np.int32(1) == s, s == np.float32(y))


@njit
def contains_mixed(s):
    return (s in (1, 2), s in [1, 2], s not in (1, 2))


@njit
def optional_eq_none(x):
    v = None if x > 5 else 3
    return v == None, v != None  # noqa: E711


def test_str_compared_to_a_number_is_false():
    assert str_eq_int("ab", 1) == (False, False, True, True)
    assert str_eq_int("1", 1) == (False, False, True, True)


def test_unrelated_types_compare_as_numba():
    assert mixed_equalities("ab", 3, 2.5) == (False, False, False, False, False, True, False,
                                              False, False, True, True, False, False,
                                              False, True, False, False)


def test_contains_of_unrelated_items():
    assert contains_mixed("ab") == (False, False, True)


def test_optional_against_none_at_run_time():
    assert optional_eq_none(3) == (False, True)
    assert optional_eq_none(7) == (True, False)


def test_operands_still_run():
    @njit
    def f(l):
        return l.pop() == "x", len(l)
    assert f([1, 2]) == (False, 1)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_order_of_unrelated_types_refused(op):
    ns = {}
    exec(f"def f(s):\n    return s {op} 1\n", ns)
    with pytest.raises(TypingError, match="not supported between unicode_type and int64"):
        njit(ns["f"])("ab")


def test_none_compared_in_a_kernel(target):
    @cuda.jit
    def k(out, x):
        out[0] = x == None  # noqa: E711
        out[1] = None != x  # noqa: E711
    out = np.zeros(2, np.int64)
    k[1, 1](out, 3)
    assert out.tolist() == [0, 1]


# ---- sum() -----------------------------------------------------------------------------------

@njit
def sums(x):
    l = [1, 2, 3]
    return (sum(l), sum([1.5, 2, 3]), sum((1, 2, 3)), sum((1, 2.5, True)), sum(range(5)),
            sum(range(5), 10), sum(range(5), start=10), sum([1, 2], 0.5), sum(l[1:]),
            sum([i * i for i in range(4)]), sum([True, False, True]), sum(range(x), start=0.5))


def test_sum_numba_results():
    r = sums(3)
    assert r == (6, 6.5, 6, 4.5, 10, 20, 20, 3.5, 5, 14, 2, 3.5)
    assert [type(v) for v in r] == [int, float, int, float, int, int, int, float, int, int, int, float]


def test_sum_of_arrays_and_other_items():
    @njit
    def f(a, b, c):
        return sum(a), sum(b), sum(c), sum([np.int8(100), np.int8(100)]), sum([1j, 2]), sum(["a", "b"], "")
    r = f(np.arange(4), np.arange(4, dtype=np.float32), np.arange(4, dtype=np.uint8))
    assert r == (6, 6.0, 6, 200, 2 + 1j, "ab")
    assert isinstance(r[1], float)

    @njit
    def g():
        return sum([[1], [2]], [0])
    assert g() == [0, 1, 2]


def test_sum_of_a_tuple_in_a_kernel(target):
    @cuda.jit
    def k(out, x):
        out[0] = sum((x, 2, 3))
        out[1] = sum((x, 0.5), start=1)
    out = np.zeros(2)
    k[1, 1](out, 1)
    assert out.tolist() == [6.0, 2.5]


def test_sum_a_user_function_named_sum_is_kept():
    @njit
    def sum(a, b):  # noqa: A001
        return a - b

    @njit
    def f():
        return sum(5, 3)
    assert f() == 2


def test_sum_of_strs_without_start_refused():
    @njit
    def f():
        return sum(["a", "b"])
    with pytest.raises(TypingError, match="'\\+' is not supported between int64 and unicode_type|unsupported operand"):
        f()


# ---- min() and max() of strs -----------------------------------------------------------------

def test_min_max_of_strs():
    @njit
    def f(s):
        return min(["b", "a", "c"]), max(["b", "a", "ccc"]), min(("b", "a")), max(("b", "c", "a")), max(s), min(s)
    assert f("bca") == ("a", "ccc", "a", "c", "c", "a")
    assert f("aé") == ("a", "ccc", "a", "c", "é", "a")

    @njit
    def empty(s):
        return max(s)
    with pytest.raises(StopIteration):
        empty("")


def test_min_of_two_strs_refused():
    @njit
    def f(a, b):
        return min(a, b)
    with pytest.raises(TypingError):
        f("b", "a")


# ---- inline lambdas, sorted(key=), list.sort(key=) --------------------------------------------

@njit
def apply(fn, v):
    return fn(v)


def test_inline_lambdas():
    @njit
    def f(x, y):
        return apply(lambda z: z + 1, x), (lambda z: z * 2)(x), (lambda z: z + y)(x)
    assert f(3, 2.5) == (4, 6, 5.5)


def test_sorted_and_sort_with_key():
    @njit
    def f(x):
        l = [3, 1, 2]
        a = sorted(l, key=lambda v: -v)
        b = sorted(l, key=lambda v: -v, reverse=True)
        l.sort(key=lambda v: -v)
        m = [3, 1, 2]
        m.sort(key=lambda v: v % 2)
        k = 1
        c = sorted([3, 1, 2], key=lambda v: v * k)
        d = sorted([(1, "b"), (2, "a")], key=lambda t: t[1])
        e = sorted((3, 1, 2), key=lambda v: -v)
        g = sorted(np.array([3, 1, 2]), key=lambda v: -v)
        h = sorted(range(x), key=lambda v: -v)
        i = sorted([3.5, 1.0, 2.0], key=lambda v: int(v))
        j = sorted(["bb", "a", "ccc"], key=lambda q: -len(q))
        n = sorted([5, 3, 1, 2, 4], key=lambda v: v % 2, reverse=True)
        o = sorted([3, 1, 2], key=None)
        return a, b, l, m, c, d, e, g, h, i, j, n, o
    assert f(3) == ([3, 2, 1], [1, 2, 3], [3, 2, 1], [2, 3, 1], [1, 2, 3], [(2, "a"), (1, "b")],
                    [3, 2, 1], [3, 2, 1], [2, 1, 0], [1.0, 2.0, 3.5], ["ccc", "bb", "a"],
                    [5, 3, 1, 2, 4], [1, 2, 3])


def test_sort_key_a_nested_def_and_a_jitted_function():
    @njit
    def neg(v):
        return -v

    @njit
    def f():
        def k(v):
            return -v
        return sorted([3, 1, 2], key=k), sorted([3, 1, 2], key=neg)
    assert f() == ([3, 2, 1], [3, 2, 1])


def test_sort_key_equal_keys_keep_their_order():
    @njit
    def f(l):
        return sorted(l, key=lambda t: t[1])
    l = [(i, (i * 7) % 3) for i in range(40)]
    assert f(l) == sorted(l, key=lambda t: t[1])


def test_sort_key_capturing_a_variable():
    # Numba refuses this key ("Cannot capture the non-constant value associated with variable
    # 'x' in a function that may escape"): its sort receives the lambda as a value. cujit calls
    # the key where the sort is written, so the captured value is passed as in a direct call and
    # the answer is Python's.
    @njit
    def f(x):
        return sorted([3, 1, 2], key=lambda v: v * x)
    assert f(3) == [1, 2, 3]
    assert f(-1) == [3, 2, 1]


def test_sort_key_returning_a_tuple():
    @njit
    def f():
        return sorted([(1, "b"), (2, "a")], key=lambda t: (t[1], t[0]))
    assert f() == [(2, "a"), (1, "b")]  # Numba's (tests/test_sort_tuple_keys.py)


# ---- f-strings -------------------------------------------------------------------------------

def test_f_strings():
    @njit
    def f(x, s, b):
        return (f"{x}", f"a{x}b{s}c", f"{s}", f"{x + 1}", f"{s}{s}", f"", f"abc", f"{True}", f"{{x}}",
                f"{np.int32(x)}", f"{b}", f"{x == 3}")
    assert f(3, "ab", False) == ("3", "a3babc", "ab", "4", "abab", "", "abc", "True", "{x}",
                                 "3", "False", "True")
    assert f(2**63 - 1, "", True)[0] == "9223372036854775807"

    @njit
    def g(x):
        return f"{x}"
    assert g(np.uint64(5)) == "5" and g(np.int8(-5)) == "-5"


@pytest.mark.parametrize("spec", ["{x!r}", "{x!s}", "{x:5}", "{x:d}", "{x=}", "{x:{x}}"])
def test_f_string_specs_refused(spec):
    ns = {}
    exec("def f(x):\n    return f'" + spec + "'\n", ns)
    with pytest.raises(UnsupportedError, match="format spec in f-strings not supported yet"):
        njit(ns["f"])(3)


# ---- print() of lists ------------------------------------------------------------------------

def test_print_lists(capfd):
    @njit
    def f(s):
        print([1, 2])
        print([1.5, 2.0])
        print(["a", "b"])
        print(s, [s])
        print([[1], [2]])
        print([True])
        l = [1]
        l.pop()
        print(l)
        print(["it's", 'say "x"', "a\nb"])
    f("ab")
    assert capfd.readouterr().out == ("[1, 2]\n[1.5, 2.0]\n['a', 'b']\nab ['ab']\n[[1], [2]]\n[True]\n[]\n"
                                      "[\"it's\", 'say \"x\"', 'a\\nb']\n")


# ---- chained comparisons evaluate each operand once ----------------------------------------

def test_chained_comparison_operands_run_once():
    @njit
    def f(l):
        r = 0 < l.pop() < 10
        s = 5 < l.pop() < l.pop()  # the last pop does not run: 5 < 2 fails first
        return r, s, len(l)
    assert f([7, 1, 2, 3]) == (True, False, 2)


def test_chained_comparison_in_a_kernel(target):
    @cuda.jit
    def k(out, a):
        out[0] = 0 <= a[0] < a[1] <= 5
        out[1] = a[0] < a[1] > a[2]
    out = np.zeros(2, np.int64)
    k[1, 1](out, np.array([1, 3, 2]))
    assert out.tolist() == [1, 1]


def test_sort_key_a_builtin():
    # Numba refuses a builtin as the key ("Key must be None or a Numba JIT compiled function");
    # cujit calls it where the sort is written: Python's answer.
    @njit
    def f(l):
        return sorted(l, key=abs)
    assert f([3, -1, 2]) == [-1, 2, 3]
