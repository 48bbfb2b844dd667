"""Typing's decisions applied by the lowering stage (ARCHITECTURE.md, deviation 1): an operator
called through a local variable, f(*t), `a[idx] op= v` with an array index and methods named by
their receiver's type are recorded by typing (FunctionInstance::rewrites) and put in the tree by
the lowering pass apply_typing_rewrites; literal_unroll loops are recorded by typing and rewritten
between two typing runs. CUJIT_DEBUG=2 prints the trees before lowering, with the original forms,
and after apply_typing_rewrites, with the new ones. Values as real Numba 0.68 / numba-cuda 0.30 give
(NumPy's and Python's own meaning of the same code)."""
import operator
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cujit import cuda, literal_unroll, njit, prange


def dumps(code, sim=False):
    """The typed trees and the trees after apply_typing_rewrites, as CUJIT_DEBUG=2 prints them."""
    env = dict(os.environ, CUJIT_DEBUG="2")
    if sim:
        env["CUJIT_ENABLE_CUDASIM"] = "1"
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                       check=True)
    err = r.stderr
    assert "cujit: before lowering" in err and "after lowering pass apply_typing_rewrites" in err, err
    typed = err.split("cujit: before lowering")[1].split("after lowering pass apply_typing_rewrites")[0]
    after = err.split("after lowering pass apply_typing_rewrites")[1].split("after lowering pass")[0]
    return typed, after


# ---- (a) an operator called through a local variable ----------------------------------------------

@njit
def local_operators(a, b, x):
    op = operator.add
    cmp = operator.lt
    st = operator.setitem
    st(x, 0, op(a, b))
    return op(a, b) * 2, cmp(a, b)


def test_operator_through_local_values():
    x = np.zeros(2)
    assert local_operators(3, 4.5, x) == (15.0, True)
    assert x[0] == 7.5


def test_operator_through_local_dump_jit():
    typed, after = dumps("""
        import operator
        import numpy as np
        from cujit import njit
        @njit
        def f(a, b, x):
            op = operator.add
            st = operator.setitem
            st(x, 0, a)
            return op(a, b)
        f(1, 2, np.zeros(1))
    """)
    # Before: `op` and `st` assigned and called; after the pass: only assigned, their calls are
    # the BinOp and the store.
    assert typed.count(" Name op @") == 2 and typed.count(" Name st @") == 2, typed
    assert "BinOp" not in typed and "Subscript" not in typed, typed
    assert after.count(" Name op @") == 1 and after.count(" Name st @") == 1, after
    assert "BinOp +" in after and "Subscript" in after, after


@cuda.jit
def k_local_operator(a):
    op = operator.mul
    i = cuda.grid(1)
    if i < a.size:
        a[i] = op(a[i], 3)


def test_operator_through_local_kernel(target):
    a = np.arange(5, dtype=np.float32)
    k_local_operator[1, 8](a)
    np.testing.assert_array_equal(a, np.arange(5, dtype=np.float32) * 3)


def test_operator_through_local_dump_kernel():
    typed, after = dumps("""
        import operator
        import numpy as np
        from cujit import cuda
        @cuda.jit
        def k(a):
            op = operator.mul
            a[0] = op(a[0], 3)
        k[1, 1](np.ones(1))
    """, sim=True)
    assert typed.count(" Name op @") == 2 and "BinOp" not in typed, typed
    assert after.count(" Name op @") == 1 and "BinOp *" in after, after


# ---- (b) f(*t) ------------------------------------------------------------------------------------

@njit
def add3(x, y, z):
    return x + 10 * y + 100 * z


@njit
def star_call(a, b):
    t = (a, b)
    return add3(*t, 7)


def test_starred_values():
    assert star_call(1, 2.0) == 721.0


def test_starred_dump_jit():
    typed, after = dumps("""
        from cujit import njit
        @njit
        def g(x, y):
            return x - y
        @njit
        def f(a, b):
            t = (a, b)
            return g(*t)
        f(5, 2)
    """)
    assert "Starred" in typed
    assert "Starred" not in after and after.count("Subscript") >= 2, after


@cuda.jit(device=True)
def dev_sub(x, y):
    return x - y


@cuda.jit
def k_starred(out, a, b):
    t = (a, b)
    out[0] = dev_sub(*t)


def test_starred_kernel(target):
    out = np.zeros(1)
    k_starred[1, 1](out, 5.5, 2.0)
    assert out[0] == 3.5


def test_starred_dump_kernel():
    typed, after = dumps("""
        import numpy as np
        from cujit import cuda
        @cuda.jit(device=True)
        def g(x, y):
            return x - y
        @cuda.jit
        def k(out, a, b):
            t = (a, b)
            out[0] = g(*t)
        k[1, 1](np.zeros(1), 5.0, 2.0)
    """, sim=True)
    assert "Starred" in typed and "Starred" not in after, after


# ---- (c) literal_unroll over a heterogeneous tuple --------------------------------------------------

@njit
def unrolled(a, b):
    s = 0.0
    for x in literal_unroll((a, b, True)):
        s += x
    return s


def test_literal_unroll_values():
    assert unrolled(1, 2.5) == 4.5


def test_literal_unroll_dump_jit():
    # Rewritten between two typing runs (the copies of the body are new code to type): the typed
    # tree shows the loop over range(n) with one branch per item already.
    typed, after = dumps("""
        from cujit import njit, literal_unroll
        @njit
        def f(a, b):
            s = 0.0
            for x in literal_unroll((a, b)):
                s += x
            return s
        f(1, 2.5)
    """)
    assert "__cj_unroll_i0" in typed and "__cj_unroll_t0" in typed
    assert "Name literal_unroll" not in typed


def test_literal_unroll_dump_kernel():
    typed, after = dumps("""
        import numpy as np
        from cujit import cuda
        from cujit.cuda.misc.special import literal_unroll
        @cuda.jit
        def k(out, a, b):
            s = 0.0
            for x in literal_unroll((a, b)):
                s += x
            out[0] = s
        k[1, 1](np.zeros(1), 1, 2.5)
    """, sim=True)
    assert "__cj_unroll_i0" in typed and "Name literal_unroll" not in typed


# ---- (d) a[idx] op= v with an array index -----------------------------------------------------------

@njit
def fancy_iadd(a, idx, v):
    a[idx] += v
    return a


def test_fancy_augassign_values():
    a = np.arange(5.0)
    idx = np.array([0, 2, 2])
    want = np.arange(5.0)
    want[idx] += 10  # NumPy's (and Numba's) meaning: getitem, add, setitem; the repeated 2 adds once
    np.testing.assert_array_equal(fancy_iadd(a, idx, 10.0), want)
    m = np.array([True, False, True, False, False])
    a = np.arange(5.0)
    want = np.arange(5.0)
    want[m] += 1.5
    np.testing.assert_array_equal(fancy_iadd(a, m, 1.5), want)


def test_fancy_augassign_dump_jit():
    typed, after = dumps("""
        import numpy as np
        from cujit import njit
        @njit
        def f(a, idx):
            a[idx] += 1.0
        f(np.zeros(3), np.array([0, 2]))
    """)
    assert "AugAssign +=" in typed
    assert "AugAssign" not in after and "Assign" in after and "BinOp +" in after, after


# ---- (e) methods named by their receiver's type -----------------------------------------------------

@njit
def methods(a, n):
    l = [1]
    l.append(n)
    s = "ab"
    return a.sum() + len(l) + l[1], s.upper()


def test_methods_values():
    assert methods(np.arange(4.0), 5) == (6.0 + 2 + 5, "AB")


def test_methods_dump_jit():
    typed, after = dumps("""
        import numpy as np
        from cujit import njit
        @njit
        def f(a, n):
            l = [1]
            l.append(n)
            return a.sum() + len(l)
        f(np.ones(3), 2)
    """)
    assert "Attribute .append" in typed and "Attribute .sum" in typed
    assert "Attribute .append" not in after and "Name list.append" in after, after
    assert "Attribute .sum" not in after and "Name numpy.sum" in after, after


C = np.array([3.0, 1.0, 2.0])


@cuda.jit
def k_methods(out, z):
    q = C.copy()
    out[0] = q[0] + z.conjugate().imag


def test_methods_kernel(target):
    out = np.zeros(1)
    k_methods[1, 1](out, 1 + 2j)
    assert out[0] == 1.0  # 3 + (-2)


def test_methods_dump_kernel():
    typed, after = dumps("""
        import numpy as np
        from cujit import cuda
        C = np.array([3.0, 1.0])
        @cuda.jit
        def k(out, z):
            q = C.copy()
            out[0] = q[0] + z.conjugate().imag
        k[1, 1](np.zeros(1), 1 + 2j)
    """, sim=True)
    assert "Attribute .copy" in typed and "Attribute .conjugate" in typed
    assert "Name numpy.copy" in after and "Name float.conjugate" in after, after
    assert "Attribute .copy" not in after and "Attribute .conjugate" not in after, after


# ---- a method's form inside another form, and in a prange loop ---------------------------------------

@njit
def nested_forms(a, idx):
    op = operator.add
    a[idx] += op(a.sum(), 1.0)
    return a


def test_nested_forms():
    a = np.arange(4.0)
    want = np.arange(4.0)
    want[np.array([1, 3])] += want.sum() + 1.0
    np.testing.assert_array_equal(nested_forms(a, np.array([1, 3])), want)


@njit(parallel=True)
def prange_local_op(a):
    op = operator.add
    s = 0.0
    for i in prange(a.size):
        s = op(s, a[i])  # a reduction once `op(s, x)` is s + x
    return s


def test_prange_reduction_through_local_operator():
    a = np.arange(100.0)
    assert prange_local_op(a) == a.sum()


@cuda.jit
def k_big_local_view(out):
    # A method's receiver is typed once through the call's new form: its 320,000 bytes of local
    # memory count once against the 512 KiB limit (twice they would pass it).
    q = cuda.local.array(40000, np.float64).view(np.int64)
    q[0] = 7
    out[0] = q[0]


def test_method_receiver_sizes_count_once(target):
    out = np.zeros(1, np.int64)
    k_big_local_view[1, 1](out)
    assert out[0] == 7
