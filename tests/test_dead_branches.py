"""Numba prunes the branch a test known before typing never takes (DeadBranchPrune): a constant,
a global constant, a local assigned once from a constant, a comparison of two such, `not` of one,
and a parameter compared with None where that parameter is None in this specialisation (passed
None, or its default None omitted). The pruned code is not typed, so code there that would not
type compiles (src/compiler/prune.cpp). A test not known keeps both branches typed. Expected
results from Numba 0.68 and numba-cuda 0.30's simulator."""
import numpy as np
import pytest

from cujit import TypingError, cuda, njit

FLAG_OFF = False
FLAG_ON = 1
LEVEL = 3
NOTHING = None
MODE = "fast"


def test_global_false_prunes_untypable_code():
    @njit
    def f(a):
        if FLAG_OFF:
            return a.foo
        return a

    assert f(1) == 1


def test_not_of_global_and_comparisons():
    @njit
    def f(a):
        if not FLAG_OFF:
            x = a
        else:
            x = a.foo
        if LEVEL == 3:
            x += 1
        else:
            x = x.bar
        if LEVEL > 2:
            x += 1
        else:
            x = x.bar
        if NOTHING is None:
            x += 1
        else:
            x = x.bar
        if MODE == "fast":
            x += 1
        else:
            x = x.bar
        return x

    assert f(1) == 5


def test_ifexp_and_while_and_boolop():
    @njit
    def f(a):
        b = a if FLAG_ON else a.foo
        while FLAG_OFF:
            b = b.bar
        if FLAG_OFF and a > 0:
            b = b.baz
        return b

    assert f(4) == 4


def test_local_assigned_once_from_constant():
    @njit
    def f(a):
        c = 0
        if c:
            return a.foo
        return a

    assert f(2) == 2


def test_branch_types_not_unified():
    # The pruned branch's str does not meet the int: Numba types one branch only.
    @njit
    def f(a):
        if FLAG_ON:
            x = 1
        else:
            x = "s"
        return x + a

    assert f(1) == 2

    @njit
    def g(a):
        if FLAG_ON:
            return a
        else:
            return "s"

    assert g(1) == 1


def test_none_argument_prunes_per_specialisation():
    @njit
    def f(a, b=None):
        if b is None:
            return a
        return a + b

    @njit
    def g(a, b=None):
        if b is not None:
            return a.foo
        return a

    @njit
    def h(a, b=None):
        return a if b is None else a.foo

    @njit
    def k(a, b=None):
        if None == b:
            return a
        return a.foo

    assert f(1) == 1 and f(1, None) == 1 and f(1, 2) == 3
    assert g(1) == 1 and g(1, None) == 1
    assert h(5) == 5 and k(6) == 6
    # b passed an int: the branch is typed, and its error is reported as in Numba.
    with pytest.raises(TypingError, match="Unknown attribute 'foo'"):
        g(1, 2)


def test_unknown_test_still_types_both_branches():
    @njit
    def f(a):
        if a > 0:
            return a
        return a.foo

    with pytest.raises(TypingError, match="Unknown attribute 'foo'"):
        f(1)


def test_reassigned_names_are_not_constants():
    # c has two definitions: Numba's get_definition gives up, so both branches run as written.
    @njit
    def f(a):
        c = 0
        if a > 0:
            c = 1
        if c:
            return 10
        return 20

    assert f(1) == 10 and f(-1) == 20

    @njit
    def g(a, b=None):
        if b is None:
            b = 3
        if b is None:
            return -1
        return a + b

    assert g(1) == 4 and g(1, 5) == 6


def test_code_after_return_is_not_typed():
    @njit
    def f(a):
        if FLAG_ON:
            return a
        return a.foo

    assert f(3) == 3


@cuda.jit(device=True)
def maybe_add(x, y=None):
    if y is None:
        return x
    return x + y


DEBUG_KERNEL = False


@cuda.jit
def pruned_kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        if DEBUG_KERNEL:
            print(out.nosuch)
        out[i] = maybe_add(x[i]) + maybe_add(x[i], 10)


def test_pruning_in_kernels(target):
    out = np.zeros(4, dtype=np.int64)
    pruned_kernel[1, 4](out, np.arange(4, dtype=np.int64))
    np.testing.assert_array_equal(out, [10, 12, 14, 16])


def test_a_test_of_literal_arithmetic_is_folded_then_pruned():
    # CPython folds `1 >> 5` to 0 before Numba sees the bytecode, so only one branch is typed:
    # the int branch stays an int (it was unified with the float64 of the other, and
    # `(f > 1) if -1 >> 5 else n` gave the int 0 for Numba's False). Pinned from Numba 0.68.
    @njit
    def f(j, d):
        return (7 if j else d) if (1 >> 5) else 2**40 + 1

    @njit
    def g(x, n):
        return (x > 1) if (+(-1 >> 5)) else n

    r = f(5, np.uint64(3))
    assert r == 2**40 + 1 and type(r) is int
    r = g(0.5, np.int16(3))
    assert r is False
