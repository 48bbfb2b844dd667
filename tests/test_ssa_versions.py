"""A variable's type per assignment, as Numba's SSA form types it (src/compiler/typeinfer_ssa.h):
each assignment is a version with its own type, and versions are unified only where they meet
(after an if, at a loop's head, after a loop left by break) and something reads them there.
Every expectation is what Numba 0.68 gives for the same function under @njit (numba-cuda types
kernels by the same rules)."""
import numpy as np
import pytest

import cujit.errors
from cujit import _core, cuda, njit, prange
from cujit.decorators import capture


def versions(func, *args):
    return _core.infer_types(capture(func), list(args))


# ---- straight-line code: a later version does not change an earlier one ----

@njit
def swap_first(a, b):
    a, b = b, a
    return a


@njit
def swap_second(a, b):
    a, b = b, a
    return b


@njit
def swap_both(a, b):
    a, b = b, a
    return a, b


def test_tuple_swap_of_int_and_float():
    # Issue 18: cujit unified a and b to float64 and returned 1.0.
    assert swap_second(1, 2.5) == 1 and type(swap_second(1, 2.5)) is int
    assert swap_first(1, 2.5) == 2.5
    assert swap_both(1, 2.5) == (2.5, 1) and type(swap_both(1, 2.5)[1]) is int


def tuple_swap(a, b):
    a, b = b, a
    return a


def test_tuple_swap_versions():
    # Numba's typemap: {'a': int64, 'a.1': float64, 'b': float64, 'b.1': int64}
    ret, local = versions(tuple_swap, "int64", "float64")
    assert ret == "float64"
    assert local == {"a": "int64", "b": "float64", "a.1": "float64", "b.1": "int64"}


@njit
def int_then_float(n):
    x = 1
    y = x + n
    x = 2.5
    return x, y


@njit
def int_float_int(n):
    x = 1
    x = 2.5
    x = n
    return x


@njit
def wraps_before_float(n):
    x = 2**62 + n
    y = x * 4  # int64 arithmetic: (2**62 + 1) * 4 wraps to 4
    x = 0.5
    return y, x


@njit
def float_then_int(n):
    x = 0.5
    y = x * 3
    x = 7 + n
    z = x // 2  # the int64 version: integer floor division
    return y, z


@njit
def param_rebound(x):
    y = x * 2  # int64: 2**63 wraps to -2**63
    x = 1.5
    return y + x


@njit
def two_params_chained(a, b):
    x = a
    y = x + 1  # int64: 2**63 - 1 + 1 wraps
    x = b
    z = x + 1
    return y, z


def test_straight_line_versions_keep_their_own_types():
    r = int_then_float(3)
    assert r == (2.5, 4) and type(r[1]) is int
    r = int_float_int(3)
    assert r == 3 and type(r) is int
    assert wraps_before_float(1) == (4, 0.5)
    r = float_then_int(0)
    assert r == (1.5, 3) and type(r[1]) is int
    assert param_rebound(2**62) == -9.223372036854776e+18
    assert two_params_chained(2**63 - 1, 0.5) == (-9223372036854775808, 1.5)


# ---- joins: after an if, at a loop's head, after a loop ----

@njit
def if_join(c):
    x = 1
    if c:
        x = 2.5
    return x


@njit
def int_use_before_join(c):
    x = 2**62 + 1
    y = x * 4  # before the join: int64, wraps to 4
    if c:
        x = 2.5
    return x, y


@njit
def loop_carried(n):
    x = 0
    for i in range(n):
        x = x + 0.5
    return x


@njit
def for_target_rebinds(n):
    i = 0.5
    for i in range(n):
        pass
    return i


@njit
def while_break_join(n):
    x = 0
    i = 0
    while i < n:
        i += 1
        if i == 2:
            x = 1.5
            break
    return x


@njit
def for_else_join(n):
    x = 0
    for i in range(n):
        if i == 7:
            break
    else:
        x = 2.5
    return x


@njit
def continue_join(n):
    x = 0
    s = 0.0
    for i in range(n):
        if i == 1:
            x = 1.5
            continue
        s += x
    return s


@njit
def nested_loops(n):
    x = 0
    for i in range(n):
        for j in range(n):
            if j == 1:
                x = x + 0.25
                continue
            if j == 2:
                break
            x += 1
    return x


@njit
def uint64_increment_loop(n):
    x = np.uint64(1)
    for i in range(n):
        x += 1  # uint64 + int64 is int64; the loop's head joins it with uint64: float64
    return x


@njit
def int32_loop(n):
    x = np.int32(1)
    for i in range(n):
        x = x + np.int32(2)
    return x


@njit
def while_true_break(n):
    x = (1, 2)
    while True:
        x = 5
        break
    return x


@njit
def if_true_branch(n):
    x = (1, 2)
    if True:
        x = 5
    return x


@njit
def break_in_inner_else(n):
    x = 0
    for i in range(n):
        for j in range(2):
            pass
        else:
            x = 1.5
            break  # leaves the outer loop: the inner one's else clause is outside it
        x = 7
    return x


@njit
def continue_in_inner_else(n):
    x = 0
    s = 0.0
    for i in range(n):
        while False:
            pass
        else:
            x = x + 0.5
            if i == 1:
                continue
        s += x
    return s


def test_jumps_in_a_loops_else_clause_belong_to_the_outer_loop():
    assert break_in_inner_else(3) == 1.5
    r = break_in_inner_else(0)
    assert r == 0.0 and type(r) is float
    assert continue_in_inner_else(3) == 2.0


def test_joins_unify_what_meets():
    assert if_join(False) == 1.0 and type(if_join(False)) is float
    assert int_use_before_join(False) == (4.611686018427388e+18, 4)
    assert loop_carried(3) == 1.5 and loop_carried(0) == 0.0 and type(loop_carried(0)) is float
    assert for_target_rebinds(3) == 2.0 and for_target_rebinds(0) == 0.5
    assert while_break_join(5) == 1.5 and while_break_join(1) == 0.0
    assert for_else_join(5) == 2.5
    assert continue_join(5) == 4.5
    assert nested_loops(4) == 5.0
    assert uint64_increment_loop(3) == 4.0 and type(uint64_increment_loop(3)) is float
    assert int32_loop(3) == 7 and type(int32_loop(3)) is int
    # A path that never reaches the join (while True without its break, the branch `if True:`
    # never takes) brings nothing to it.
    assert while_true_break(1) == 5
    assert if_true_branch(1) == 5


def loop_versions(n):
    acc = 0
    for i in range(n):
        acc += i * 0.5
    return acc


def test_loop_versions():
    # Numba: {'acc': Literal[int](0), 'acc.1': float64 (the head's phi), 'acc.2': float64, ...}
    _, local = versions(loop_versions, "int64")
    assert local == {"n": "int64", "acc": "int64", "acc.1": "float64", "acc.2": "float64", "i": "int64"}


# ---- branches a constant test never takes reach nothing (Numba prunes them) ----

DEBUG = False
LEVEL = 1


@njit
def debug_branch(n):
    x = 1
    if DEBUG:
        x = 2.5
    return x


@njit
def else_of_global(n):
    x = 1
    if LEVEL:
        pass
    else:
        x = 2.5
    return x


@njit
def not_debug(n):
    x = 1
    if not DEBUG:
        pass
    else:
        x = 2.5
    return x


@njit
def compared_global(n):
    x = 1
    if DEBUG == True:  # noqa: E712
        x = 2.5
    if LEVEL > 0:
        x = 2
    else:
        x = (1, 2)
    return x


@njit
def while_false(n):
    x = 1
    while False:
        x = 2.5
    return x


@njit
def debug_return(n):
    if DEBUG:
        return 1.5
    return 1


@njit
def debug_return_tuple(n):
    if DEBUG:
        return (1, 2)
    return 1


@njit
def global_true_returns(n):
    if LEVEL:
        return 1


@njit
def after_return(n):
    return 1
    return 2.5


@njit
def while_global_true(n):
    while LEVEL:
        if n > 0:
            return 1
    return 2.5


@njit
def constant_variable(n):
    x = 1
    if x > 1:  # x is the constant 1 here: Numba prunes the branch
        x = 2.5
    return x


@njit
def constant_chain(n):
    a = 1
    b = a
    x = 1
    if b > 1:
        x = 2.5
    a = -1
    if a < 0:
        pass
    else:
        x = 2.5
    d = DEBUG
    if d:
        x = 2.5
    return x


@njit
def joined_variable_is_not_constant(n):
    a = 1
    if n > 3:
        a = 0
    x = 1
    if a > 1:  # a is a join here: not pruned, x is float64
        x = 2.5
    return x


@njit
def loop_variable_is_not_constant(n):
    x = 1
    for i in range(n):
        if x > 1:
            x = 2.5
    return x


@njit
def loop_in_pruned_branch(n):
    x = 1
    y = n
    z = 0.5
    x = y * z
    if DEBUG:
        for j in range(n):
            y = x // 2
        t = (y, y)
        y = t[1] + t[0]
    return x, y, z


def test_constant_tests_prune_branches():
    for f in (constant_variable, constant_chain):
        r = f(1)
        assert r == 1 and type(r) is int, f.py_func.__name__
    for f in (joined_variable_is_not_constant, loop_variable_is_not_constant):
        r = f(1)
        assert r == 1.0 and type(r) is float, f.py_func.__name__
    # The loop in a pruned branch is typed all the same (its C++ is generated, never run).
    assert loop_in_pruned_branch(3) == (1.5, 3, 0.5)


def test_global_constant_tests_prune_branches():
    for f in (debug_branch, else_of_global, not_debug, compared_global, while_false, debug_return,
              debug_return_tuple, global_true_returns, after_return, while_global_true):
        r = f(1)
        assert r == (2 if f is compared_global else 1) and type(r) is int, f.py_func.__name__


# ---- arrays and tuples re-bound ----

@njit
def array_rebound(n):
    a = np.zeros(n, dtype=np.int32)
    s = a.sum()
    a = np.ones(n)
    return a[0] + s


@njit
def array_layout_join(a, n):
    b = a
    if n > 1:
        b = a[::2]
    return b.sum()


@njit
def tuple_rebound(n):
    t = (1, 2)
    t = (1.5, n)
    return t


@njit
def tuple_join(n):
    t = (1, 2)
    if n > 1:
        t = (1.5, n)
    return t


@njit
def tuple_loop(n):
    t = (0, 0)
    for i in range(n):
        t = (t[1], t[0] + 0.5)
    return t


def test_arrays_and_tuples_rebound():
    assert array_rebound(3) == 1.0
    assert array_layout_join(np.arange(6.0), 3) == 6.0
    assert tuple_rebound(3) == (1.5, 3)
    r = tuple_join(3)
    assert r == (1.5, 3) and type(r[0]) is float
    r = tuple_join(1)
    assert r == (1.0, 2) and type(r[0]) is float
    assert tuple_loop(3) == (0.5, 1.0)


# ---- versions that meet where nothing reads them are never unified ----

@njit
def unread_if_join(x):
    y = 1
    if x > 0:
        y = (x, x)
    return x


@njit
def unread_loop_join(n):
    y = 1
    for i in range(n):
        y = (i, i)
    return n


@njit
def none_then_value_unread(x):
    y = None
    if x > 0:
        y = x
    return 1


def test_unread_joins_are_not_unified():
    assert unread_if_join(3) == 3
    assert unread_loop_join(3) == 3
    assert none_then_value_unread(3) == 1


@njit
def read_if_join(x):
    y = 1
    if x > 0:
        y = (x, x)
    return y


@njit
def read_loop_join(n):
    y = 1
    for i in range(n):
        print(y)
        y = (i, i)
    return n


def test_read_joins_that_do_not_unify_are_refused():
    # Numba: "Cannot unify Literal[int](1) and UniTuple(int64 x 2) for 'y.2'"
    with pytest.raises(cujit.errors.TypingError, match=r"Cannot unify int64 and UniTuple\(int64 x 2\) for 'y'") as e:
        read_if_join(3)
    assert e.value.lineno == read_if_join.py_func.__code__.co_firstlineno + 5  # return y
    with pytest.raises(cujit.errors.TypingError, match=r"Cannot unify int64 and UniTuple\(int64 x 2\) for 'y'"):
        read_loop_join(3)


# ---- None ----

@njit
def none_variable(a):
    x = None
    print(x)
    y = x
    if y is None:
        return 1
    return 2


@njit
def optional_join(c):
    x = None
    if c:
        x = 5
    return x


def test_none_versions(capfd):
    # A variable that only ever holds None had a C++ variable of type void (a compile error).
    assert none_variable(1) == 1
    assert capfd.readouterr().out == "None\n"
    assert optional_join(True) == 5 and optional_join(False) is None


# ---- parallel code: a reduction that starts as an int ----

@njit(parallel=True)
def int_start_float_sum(a):
    s = 0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@njit(parallel=True)
def private_rebound(a, out):
    t = 0
    for i in prange(a.shape[0]):
        t = a[i] * 2
        out[i] = t


def test_prange_with_versions():
    a = np.arange(10) * 0.5
    assert int_start_float_sum(a) == 22.5
    out = np.zeros(10)
    private_rebound(a, out)
    np.testing.assert_array_equal(out, a * 2)


# ---- kernels ----

@cuda.jit
def kernel_versions(a, b, n, out):
    x = a[0]      # int64: 2**62 + 1
    y = x * 4     # int64 arithmetic wraps to 4
    x = b[0]      # a float64 version of x
    out[0] = y
    out[1] = x * 4
    p, q = a[0], b[0]
    p, q = q, p   # p float64, q int64
    out[2] = q * 4
    out[3] = p
    s = 0
    for i in range(n):
        s = s + 0.5
    out[4] = s
    i = 0.5
    for i in range(n):
        pass
    out[5] = i
    k = 2**62 + 1
    j = 0
    while j < n:
        j += 1
        if j == 2:
            k = 0.25
            break
    out[6] = k


def test_kernel_versions(target):
    out = np.zeros(7)
    kernel_versions[1, 1](np.array([2**62 + 1]), np.array([0.5]), 3, out)
    np.testing.assert_array_equal(out, [4.0, 2.0, 4.0, 0.5, 1.5, 2.0, 0.25])
    out = np.zeros(7)
    kernel_versions[1, 1](np.array([2**62 + 1]), np.array([0.5]), 1, out)
    np.testing.assert_array_equal(out, [4.0, 2.0, 4.0, 0.5, 0.5, 0.0, float(2**62 + 1)])


@cuda.jit
def kernel_unread_join(out, x):
    y = None
    if x > 0:
        y = x
    z = 1
    if x > 1:
        z = (x, x)
    out[0] = 1


def test_kernel_unread_joins(target):
    # Numba accepts both: y (None or int64) and z (int64 or a tuple) are not read after their joins.
    out = np.zeros(1, dtype=np.int64)
    kernel_unread_join[1, 1](out, 3)
    assert out[0] == 1
