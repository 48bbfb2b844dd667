"""Whole-array expressions in @jit code (issue 20): operators on arrays and numbers, comparisons,
bit and logical operators, NumPy ufuncs, np.where and np.clip, with NumPy's broadcasting and the
dtypes Numba 0.68 gives (its ufunc loop selection: float32 + an int literal stays float32, int32 + 1
is int64); a += b in place; out=. The lowering stage (src/compiler/lower.cpp) fuses each whole
expression into one loop. Every expected value was computed by Numba 0.68's @njit and is pinned
as a literal."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cujit import jit, njit

f32 = np.arange(4, dtype=np.float32)
i32 = np.arange(4, dtype=np.int32)
i8 = np.array([-128, -1, 5, 127], dtype=np.int8)
u8 = np.arange(4, dtype=np.uint8)
f64 = np.arange(4.0)
nan, inf = float("nan"), float("inf")

CASES = [
    ("f32+1", lambda a: a + 1, (f32,), [1.0, 2.0, 3.0, 4.0], "float32"),
    ("f32+1.0", lambda a: a + 1.0, (f32,), [1.0, 2.0, 3.0, 4.0], "float64"),
    ("i32+1", lambda a: a + 1, (i32,), [1, 2, 3, 4], "int64"),
    ("i8+i8", lambda a: a + a, (i8,), [0, -2, 10, -2], "int8"),
    ("u8+i8", lambda a, b: a + b, (u8, i8), [-128, 0, 7, 130], "int16"),
    ("i32*2.5", lambda a: a * 2.5, (i32,), [0.0, 2.5, 5.0, 7.5], "float64"),
    ("i32/2", lambda a: a / 2, (i32,), [0.0, 0.5, 1.0, 1.5], "float64"),
    ("i32//0", lambda a: a // 0, (i32,), [0, 0, 0, 0], "int64"),
    ("i32%0", lambda a: a % 0, (i32,), [0, 0, 0, 0], "int64"),
    ("i32%-3", lambda a: (a - 2) % -3, (i32,), [-2, -1, 0, -2], "int64"),
    ("f64/0", lambda a: a / 0, (f64,), [nan, inf, inf, inf], "float64"),
    ("f64//0", lambda a: a // 0, (f64,), [nan, inf, inf, inf], "float64"),
    ("mod-f", lambda a: a % 2.5, (np.array([-3.0, -1.0, 1.0, 3.5]),), [2.0, 1.5, 1.0, 1.0], "float64"),
    ("1-f32", lambda a: 1 - a, (f32,), [1.0, 0.0, -1.0, -2.0], "float32"),
    ("f32>2", lambda a: a > 2, (f32,), [False, False, False, True], "bool"),
    ("2<=a", lambda a: 2 <= a, (i32,), [False, False, True, True], "bool"),
    ("a==b", lambda a, b: a == b, (f32, f64), [True, True, True, True], "bool"),
    ("-i8", lambda a: -a, (i8,), [-128, 1, -5, -127], "int8"),
    ("~bool", lambda a: ~(a > 1), (i32,), [True, True, False, False], "bool"),
    ("~i8", lambda a: ~a, (i8,), [127, 0, -6, -128], "int8"),
    ("and", lambda a: (a > 0) & (a < 3), (f64,), [False, True, True, False], "bool"),
    ("or-xor", lambda a: ((a > 2) | (a < 1)) ^ (a == 0), (f64,), [False, False, False, True], "bool"),
    ("shl", lambda a: a << 2, (i32,), [0, 4, 8, 12], "int64"),
    ("shr", lambda a: a >> 1, (i8,), [-64, -1, 2, 63], "int64"),
    ("f32**2", lambda a: a ** 2, (f32,), [0.0, 1.0, 4.0, 9.0], "float32"),
    ("i32**2", lambda a: a ** 2, (i32,), [0, 1, 4, 9], "int64"),
    ("f**f", lambda a: a ** 0.5, (f64,), [0.0, 1.0, 1.4142135623730951, 1.7320508075688772], "float64"),
    ("bcast2d", lambda a, b: a * b, (np.arange(6.0).reshape(2, 3), np.arange(3.0)),
     [[0.0, 1.0, 4.0], [0.0, 4.0, 10.0]], "float64"),
    ("bcast3d", lambda a, b: a - b, (np.arange(6.0).reshape(2, 1, 3), np.arange(4.0).reshape(4, 1)),
     [[[0.0, 1.0, 2.0], [-1.0, 0.0, 1.0], [-2.0, -1.0, 0.0], [-3.0, -2.0, -1.0]],
      [[3.0, 4.0, 5.0], [2.0, 3.0, 4.0], [1.0, 2.0, 3.0], [0.0, 1.0, 2.0]]], "float64"),
    ("strided", lambda a: a[::2] * 2 + a[1::2], (np.arange(8.0),), [1.0, 7.0, 13.0, 19.0], "float64"),
    ("reversed", lambda a: a[:, ::-1] + 1, (np.arange(6.0).reshape(2, 3),), [[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]], "float64"),
    ("mixed", lambda a, b, x, y: np.sqrt(a) + b * 2 - np.hypot(x, y), (f64, f64 + 1, f64, f64 * 2),
     [2.0, 2.76393202250021, 2.9420776073735153, 3.0238468750695073], "float64"),
    ("hypot32", lambda x, y: np.hypot(x, y), (f32, f32 + 1), [1.0, 2.2360680103302, 3.605551242828369, 5.0], "float32"),
    ("tanh32", lambda a: np.tanh(a) * 2, (f32,), [0.0, 1.5231883525848389, 1.9280551671981812, 1.9901095628738403], "float32"),
    ("where3", lambda a: np.where(a > 1, a, 0), (f32,), [0.0, 0.0, 2.0, 3.0], "float64"),
    ("where3b", lambda a, b: np.where(a > b, a, b), (f64, 3 - f64), [3.0, 2.0, 2.0, 3.0], "float64"),
    ("where-i32-i8", lambda a, b: np.where(a > 1, a, b), (i32, i32.astype(np.int8)), [0, 1, 2, 3], "int32"),
    ("where-scal", lambda a: np.where(a > 1, 1, 0), (f32,), [0, 0, 1, 1], "int64"),
    ("clip", lambda a: np.clip(a, 1, 2), (f32,), [1.0, 1.0, 2.0, 2.0], "float32"),
    ("clip-i-f", lambda a: np.clip(a, 0.5, 2.5), (i32,), [0, 1, 2, 2], "int32"),
    ("clip-arr", lambda a, lo: np.clip(a, lo, 2), (f64, np.ones(4)), [1.0, 1.0, 2.0, 2.0], "float64"),
    ("clip-none", lambda a: np.clip(a, None, 2), (f64,), [0.0, 1.0, 2.0, 2.0], "float64"),
    ("clip-expr", lambda a: np.clip(a * 2, 1, 5) + 1, (f64,), [2.0, 3.0, 5.0, 6.0], "float64"),
    ("abs", lambda a: np.abs(a - 2), (i32,), [2, 1, 0, 1], "int64"),
    ("abs8", lambda a: np.abs(a), (i8,), [-128, 1, 5, 127], "int8"),
    ("complex", lambda a: a * 1j + 1, (f64,), [1 + 0j, 1 + 1j, 1 + 2j, 1 + 3j], "complex128"),
    ("complex-neg-pow", lambda a: -(a * 1j) ** 2, (f64[:3],), [0j, 1 + 0j, 4 + 0j], "complex128"),
    ("bool+bool", lambda a: (a > 1) + (a > 2), (i32,), [False, False, True, True], "bool"),
    ("f32/i32", lambda a, b: a / b, (f32, i32), [nan, 1.0, 1.0, 1.0], "float32"),
    ("ufunc-of-expr", lambda a: np.exp(-a * a), (f64,),
     [1.0, 0.36787944117144233, 0.01831563888873418, 0.00012340980408667956], "float64"),
    ("scalar-leaf", lambda a: a * (2 + 3) - a.sum(), (f64,), [-6.0, -1.0, 4.0, 9.0], "float64"),
]


@pytest.mark.parametrize("name,f,args,want,dtype", CASES, ids=[c[0] for c in CASES])
def test_array_expression(name, f, args, want, dtype):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's own divide-by-zero warnings where the check runs it
        got = njit(f)(*args)
    assert isinstance(got, np.ndarray) and str(got.dtype) == dtype, (got, dtype)
    np.testing.assert_array_equal(got, np.array(want, dtype=dtype))
    assert got.flags.c_contiguous


def test_expression_of_reduction():
    assert njit(lambda a, b: np.sum(a * b))(f64, f64) == 14.0


def inplace_add(a, b):
    a += b
    return a


def inplace_scalars(a):
    a *= 3
    a -= 1
    return a


def inplace_expr(a, b):
    a += np.sqrt(b) * 2
    return a


def inplace_overlap(a):
    a[1:] += a[:-1]  # Numba: one pass in order, each element reading the updated one before it
    return a


def setslice(a, b):
    a[:] = b * 2 + 1
    return a


def setslice_overlap(a):
    a[1:] = a[:-1] * 2  # the value is computed before it is stored
    return a


def out_positional(a, out):
    np.sin(a * 2, out)
    return out


def view_inplace(a):
    v = a[:, 1]
    v += 10
    return a


INPLACE = [
    (inplace_add, (np.arange(4.0), np.arange(4, dtype=np.int32)), [0.0, 2.0, 4.0, 6.0], "float64"),
    (inplace_scalars, (np.arange(4, dtype=np.int16),), [-1, 2, 5, 8], "int16"),
    (inplace_expr, (np.arange(4.0), np.arange(4.0)), [0.0, 3.0, 4.82842712474619, 6.464101615137754], "float64"),
    (inplace_add, (np.zeros((2, 3)), np.arange(3.0)), [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]], "float64"),
    (inplace_overlap, (np.arange(5.0),), [0.0, 1.0, 3.0, 6.0, 10.0], "float64"),
    (setslice, (np.zeros(4), np.arange(4.0)), [1.0, 3.0, 5.0, 7.0], "float64"),
    (setslice_overlap, (np.arange(5.0),), [0.0, 0.0, 2.0, 4.0, 6.0], "float64"),
    (out_positional, (np.arange(3.0), np.zeros(3)), [0.0, 0.9092974268256817, -0.7568024953079282], "float64"),
    (view_inplace, (np.arange(6.0).reshape(2, 3),), [[0.0, 11.0, 2.0], [3.0, 14.0, 5.0]], "float64"),
]


@pytest.mark.parametrize("f,args,want,dtype", INPLACE, ids=[c[0].__name__ + str(i) for i, c in enumerate(INPLACE)])
def test_in_place(f, args, want, dtype):
    first = args[0] if f is not out_positional else args[1]
    got = njit(f)(*args)
    assert got is first or np.shares_memory(got, first)  # the caller's array, changed in place
    np.testing.assert_array_equal(got, np.array(want, dtype=dtype))
    np.testing.assert_array_equal(first, np.array(want, dtype=dtype))


def test_out_keyword_fused():
    @njit
    def f(a, b, out):
        np.add(a * 2, b, out=out)  # Numba refuses out= by keyword; NumPy's meaning
        return out

    out = np.zeros(4)
    f(np.arange(4.0), np.ones(4), out)
    np.testing.assert_array_equal(out, [1.0, 3.0, 5.0, 7.0])


@pytest.mark.parametrize("f,args", [
    (lambda a, b: a + b, (np.ones(3), np.ones(4))),
    (lambda a, b: a * 2 + b, (np.ones((2, 3)), np.ones(4))),
])
def test_broadcast_error(f, args):
    with pytest.raises(ValueError, match="unable to broadcast argument 1 to output array"):
        njit(f)(*args)


def test_in_place_cannot_grow():
    # NumPy's rule (Numba writes past the smaller array instead): the output is never broadcast.
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        njit(inplace_add)(np.zeros(3), np.ones(4))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        njit(inplace_add)(np.zeros((1, 3)), np.ones((2, 3)))
    with pytest.raises(Exception, match="non-broadcastable output operand"):
        njit(inplace_add)(np.zeros(3), np.ones((2, 3)))


def test_in_place_cast_refused():
    with pytest.raises(Exception, match="Cannot cast ufunc 'add' output from float64 to int32 with casting rule 'same_kind'"):
        njit(inplace_add)(np.zeros(3, np.int32), np.ones(3))


def test_zero_dimensional():
    got = njit(lambda a: a * 2 + 1)(np.array(3.0))
    assert float(got) == 7.0


def test_noncontiguous_and_2d_inputs():
    a = np.arange(24.0).reshape(4, 6)[:, ::2]  # strided rows
    b = np.asfortranarray(np.arange(12.0).reshape(4, 3))
    got = njit(lambda a, b: a * b - 1)(a, b)
    np.testing.assert_array_equal(got, a * b - 1)
    assert got.flags.c_contiguous


@jit(nopython=True)
def go_fast(a):  # Numba's 5-minute guide, unchanged
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def test_five_minute_guide():
    x = np.arange(100).reshape(10, 10)
    got = go_fast(x)
    assert got.dtype == np.float64 and got.shape == (10, 10)
    assert got[0, 0] == 8.999999999442107 and got[9, 9] == 107.99999999944211
    np.testing.assert_array_equal(got, x + 8.999999999442107)


@jit
def hypot_course(x, y):  # the course's section-2 comparison
    return np.hypot(x, y)


def test_course_hypot():
    x = np.arange(5, dtype=np.float32)
    y = np.ones(5, dtype=np.float32) * 3
    got = hypot_course(x, y)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.hypot(x, y))


def test_one_loop_no_temporaries():
    # CUJIT_DEBUG=2 prints the program after each lowering pass: the whole expression is one
    # ArrayExpr (one loop), its inputs the four arrays, with no array made in between.
    code = textwrap.dedent("""
        import numpy as np
        from cujit import njit
        @njit
        def f(a, b, x, y):
            return np.sqrt(a) + b * 2 - np.hypot(x, y)
        f(np.ones(3), np.ones(3), np.ones(3), np.ones(3))
    """)
    env = dict(os.environ, CUJIT_DEBUG="2")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    after = r.stderr.split("after lowering pass fuse_array_expressions")[1]
    after = after.split("cujit: typed")[0]  # the tree after the pass, before the typed dump
    assert after.count("ArrayExpr") == 1, after
    assert "cj_e0_3" in after and "cj_e0_4" not in after, after  # four inputs


def test_gpu_code_refuses(target):
    from cujit import cuda

    @cuda.jit
    def k(a):
        b = a + 1  # noqa: F841
    with pytest.raises(Exception, match=r"whole-array arithmetic \('\+' on array\(float32, 1d, C\)\) is not supported in a CUDA kernel"):
        k[1, 1](np.zeros(4, np.float32))


def test_in_place_through_subscript():
    @njit
    def f(a, b):
        a[0] += b
        a[1:, 1] *= 2
        return a

    a = np.arange(6.0).reshape(3, 2)
    f(a, np.array([10.0, 20.0]))
    np.testing.assert_array_equal(a, [[10.0, 21.0], [2.0, 6.0], [4.0, 10.0]])


def test_complex_ufuncs_on_numbers():
    # The ufuncs' complex loops on scalars too (np.add of two complex numbers did not compile).
    f = njit(lambda z, w: (np.add(z, w), np.multiply(z, w), np.negative(z), np.power(z, w)))
    got = f(1 + 2j, 3 - 1j)
    assert got[:3] == ((4 + 1j), (5 + 5j), (-1 - 2j))
    assert abs(got[3] - (1 + 2j) ** (3 - 1j)) < 1e-12


def test_parallel_array_expression():
    # @jit(parallel=True): a long loop is split over the OpenMP threads (Numba's parfors); the
    # result is the serial one.
    @njit(parallel=True)
    def f(a, b):
        c = np.sqrt(a) * 2 + b
        c += 1
        return c

    a = np.arange(100000.0)
    b = np.ones(100000)
    np.testing.assert_array_equal(f(a, b), np.sqrt(a) * 2 + b + 1)
