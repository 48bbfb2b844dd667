"""NumPy ufuncs on numbers and arrays inside compiled code (builtins.def's UFUNC rows), and
whole-array reductions. Expected values were computed with NumPy and Numba 0.68 (@njit) and are
pinned as literals."""
import math

import numpy as np
import pytest

from cujit import cuda, jit


# ---- ufuncs in @jit ---------------------------------------------------------------------------

def test_out_positional_and_keyword():
    @jit
    def f(x, out):
        np.sin(x, out)

    @jit
    def g(x, out):
        return np.sqrt(x, out=out)

    o = np.zeros(3)
    f(np.array([0.0, 0.5, 1.0]), o)
    assert o.tolist() == [0.0, 0.479425538604203, 0.8414709848078965]
    o2 = np.zeros(3, np.float32)
    r = g(np.array([1.0, 4.0, 2.0], np.float32), o2)
    assert r.dtype == np.float32 and o2.tolist() == [1.0, 2.0, np.float32(math.sqrt(2.0))]


def test_loop_type_is_numpys():
    @jit
    def s(a):
        return np.sin(a)

    @jit
    def add(a, b):
        return np.add(a, b)

    # np.sin of int16 computes in float32, of int32 in float64 (NumPy's first safe loop)
    assert s(np.arange(3, dtype=np.int16)).dtype == np.float32
    assert s(np.arange(3, dtype=np.int32)).dtype == np.float64
    r = add(np.array([100, 120], np.int8), np.array([100, 7], np.int8))
    assert r.dtype == np.int8 and r.tolist() == [-56, 127]  # int8 stays int8 and wraps
    assert add(np.int32(3), np.int32(4)) == 7
    # Numba: with mixed integer and float inputs the integer takes the float loop
    assert add(np.float32(1.5), np.int32(2)) == 3.5


def test_broadcasting_new_array():
    @jit
    def f(a, b):
        return np.hypot(a, b)

    r = f(np.array([[3.0], [6.0]]), np.array([4.0, 8.0, 0.0]))
    assert r.shape == (2, 3)
    assert r.tolist() == [[5.0, 8.54400374531753, 3.0], [7.211102550927978, 10.0, 6.0]]


def test_broadcast_mismatch_raises():
    @jit
    def f(a, b, out):
        np.add(a, b, out)

    with pytest.raises(ValueError, match="could not be broadcast"):
        f(np.ones(3), np.ones(2), np.ones(3))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        f(np.ones(3), np.ones(3), np.ones(2))


def test_comparisons_signed_unsigned():
    @jit
    def f(a, b, out):
        np.greater(a, b, out)

    @jit
    def eq(a, b, out):
        np.equal(a, b, out)

    a = np.array([-1, -1, 0, 0, 1, 1], np.int64)
    b = np.array([0, 1, 0, 1, 0, 1], np.uint64)
    o = np.zeros(6, np.bool_)
    f(a, b, o)
    assert o.tolist() == [False, False, False, False, True, False]
    f(b, a, o)
    assert o.tolist() == [True, True, False, True, False, False]
    eq(np.array([-1], np.int64), np.array([2**64 - 1], np.uint64), o[:1])
    assert not o[0]


def test_minmax_nan_and_bits():
    @jit
    def f(a, b, o1, o2, o3, o4):
        np.maximum(a, b, o1)
        np.minimum(a, b, o2)
        np.fmax(a, b, o3)
        np.fmin(a, b, o4)

    a = np.array([1.0, np.nan, 3.0])
    b = np.array([2.0, 0.0, np.nan])
    outs = [np.zeros(3) for _ in range(4)]
    f(a, b, *outs)
    assert np.array_equal(outs[0], [2.0, np.nan, np.nan], equal_nan=True)
    assert np.array_equal(outs[1], [1.0, np.nan, np.nan], equal_nan=True)
    assert outs[2].tolist() == [2.0, 0.0, 3.0]
    assert outs[3].tolist() == [1.0, 0.0, 3.0]

    @jit
    def bits(a, b, o1, o2):
        np.invert(a, o1)
        np.bitwise_xor(a, b, o2)

    o1, o2 = np.zeros(3, np.uint8), np.zeros(3, np.uint8)
    bits(np.array([0, 1, 255], np.uint8), np.array([1, 3, 15], np.uint8), o1, o2)
    assert o1.tolist() == [255, 254, 0] and o2.tolist() == [1, 2, 240]


def test_integer_division_family():
    @jit
    def f(a, b, o1, o2, o3, o4):
        np.floor_divide(a, b, o1)
        np.remainder(a, b, o2)
        np.fmod(a, b, o3)
        np.power(a, b, o4)

    a = np.array([7, -7, 2, 3], np.int32)
    b = np.array([0, 2, -1, 3], np.int32)
    o = [np.zeros(4, np.int32) for _ in range(4)]
    f(a, b, *o)
    assert o[0].tolist() == [0, -4, -2, 1]
    assert o[1].tolist() == [0, 1, 0, 0]
    assert o[2].tolist() == [0, -1, 0, 0]  # NumPy's C sign (Numba's @njit gives 1 for -7 fmod 2)
    assert o[3].tolist() == [1, 49, 0, 27]  # 2 ** -1 is 0 in integers, as Numba computes it


def test_predicates_and_logic_cast_into_out():
    @jit
    def f(a, o1, o2, o3):
        np.isnan(a, o1)
        np.logical_not(a, o2)
        np.signbit(a, o3)

    a = np.array([np.nan, 0.0, -0.0, -2.0])
    o1 = np.zeros(4, np.int32)  # bool results cast into an int32 array (same_kind)
    o2 = np.zeros(4, np.float64)
    o3 = np.zeros(4, np.bool_)
    f(a, o1, o2, o3)
    assert o1.tolist() == [1, 0, 0, 0]
    assert o2.tolist() == [0.0, 1.0, 1.0, 0.0]
    assert o3.tolist() == [False, False, True, True]


def test_scalar_calls():
    @jit
    def f(x, y):
        return np.arctan2(x, y), np.negative(x), np.absolute(np.int8(-128)), np.sign(y)

    r = f(1.0, -2.0)
    assert r == (2.677945044588987, -1.0, -128, -1.0)


# ---- ufuncs in kernels ------------------------------------------------------------------------

def test_kernel_ufunc_into_out(target):
    @cuda.jit
    def k(x, out):
        np.cos(x, out)

    x = np.asfortranarray(np.linspace(0, 1, 6).reshape(2, 3))
    o = np.zeros((2, 3), order="F")
    k[1, 1](x, o)
    # the GPU's cos may differ from the C library's in the last bit
    np.testing.assert_allclose(o, np.cos(x), rtol=1e-15, atol=0)
    s = np.zeros(1, np.float32)
    k[1, 1](np.float32(0.5), s)  # a number broadcast into a one-element array
    np.testing.assert_allclose(s, [np.float32(0.87758255)], rtol=1e-6)


def test_kernel_comparison_and_bits(target):
    @cuda.jit
    def k(a, b, o1, o2):
        np.less_equal(a, b, out=o1)
        np.bitwise_and(a, b, o2)

    a = np.array([-1, 5, 7], np.int64)
    b = np.array([0, 5, 3], np.int64)
    o1, o2 = np.zeros(3, np.bool_), np.zeros(3, np.int64)
    k[1, 1](a, b, o1, o2)
    assert o1.tolist() == [True, True, False] and o2.tolist() == [0, 5, 3]


# ---- reductions -------------------------------------------------------------------------------

ARRAYS = [
    np.float64([1.0, 2.0, 0.0, -0.0, 1.0, -1.5]),
    np.float64([-1.5, 2.5, float("inf"), -float("inf")]),
    np.float64([np.nan, -1.5, 2.5, np.nan, 3.0]),
    np.float64([np.nan, np.nan]),
]
# Numba's @njit results, per function, for ARRAYS in order (nan written as None).
EXPECTED = {
    "sum": [2.5, None, None, None],
    "prod": [0.0, math.inf, None, None],
    "mean": [0.4166666666666667, None, None, None],
    "var": [1.201388888888889, None, None, None],
    "std": [1.0960788698304922, None, None, None],
    "min": [-1.5, -math.inf, None, None],
    "max": [2.0, math.inf, None, None],
    "nanmin": [-1.5, -math.inf, -1.5, None],
    "nanmax": [2.0, math.inf, 3.0, None],
    "nansum": [2.5, None, 4.0, 0.0],
    "nanprod": [0.0, math.inf, -11.25, 1.0],
    "nanmean": [0.4166666666666667, None, 1.3333333333333333, None],
    "argmin": [5, 3, 0, 0],
    "argmax": [1, 2, 0, 0],
    "all": [False, True, True, True],
    "any": [True, True, True, True],
    "count_nonzero": [4, 4, 5, 2],
}


def same(got, want, rel=0.0):
    if want is None:
        return got != got
    if rel and isinstance(want, float) and math.isfinite(want):
        return got == pytest.approx(want, rel=rel)
    return got == want and math.copysign(1, got) == math.copysign(1, want) if isinstance(want, float) else got == want


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reductions_jit(name):
    ns = {"np": np}
    exec(f"def f(a):\n    return np.{name}(a)\n", ns)
    f = jit(ns["f"])
    for a, want in zip(ARRAYS, EXPECTED[name]):
        assert same(f(a), want), (name, a)


@pytest.mark.parametrize("name", ["sum", "var", "nanmin", "argmax", "all", "nanmean"])
def test_reductions_kernel(name, target):
    ns = {"np": np}
    exec(f"def k(a, out):\n    out[0] = np.{name}(a)\n", ns)
    k = cuda.jit(ns["k"])
    for a, want in zip(ARRAYS, EXPECTED[name]):
        out = np.zeros(1, np.float64)
        k[1, 1](a, out)
        # the GPU may fuse a multiply and an add (var): the last bit may differ there
        assert same(float(out[0]), want if want is None else float(want), 1e-15 if target == "gpu" else 0.0), (name, a)


def test_reduction_types_and_methods():
    @jit
    def f(a):
        return a.sum(), a.prod(), a.mean(), a.min(), a.argmax(), a.any()

    a = np.arange(1, 7, dtype=np.int32).reshape(2, 3)[:, ::-1]  # not contiguous
    r = f(a)
    assert r == (21, 720, 3.5, 1, 3, True)
    assert [type(x) for x in r] == [int, int, float, int, int, bool]

    @jit
    def m(a):
        return np.mean(a), np.var(a)

    # float32: the mean in float32 (0.1 + 0.2 + 0.3 summed in float32), var in float64 (Numba's)
    assert m(np.float32([0.1, 0.2, 0.3])) == (0.20000000298023224, 0.00666666744897763)


def test_reductions_of_empty_arrays():
    @jit
    def mn(a):
        return np.min(a)

    @jit
    def am(a):
        return np.argmax(a)

    @jit
    def s(a):
        return np.sum(a), np.mean(a)

    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum which has no identity"):
        mn(np.zeros(0))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        am(np.zeros(0))
    r = s(np.zeros(0))
    assert r[0] == 0.0 and r[1] != r[1]


@jit
def np_hypot(x, y):
    return np.hypot(x, y)


def test_hypot_float32_is_glibcs_hypotf_bit_for_bit():
    # cujit's float32 hypot is inline (so the loop vectorises); Numba calls hypotf. Values are
    # Numba 0.68's (an infinity wins over NaN); the random pairs compare with NumPy's hypotf.
    x = np.array([3, 1e-30, 3e38, np.inf, np.nan, -np.inf, 0.0, 1.5e-45, 1e20], np.float32)
    y = np.array([4, 1e-30, 3e38, np.nan, np.inf, 1.0, -0.0, 1.5e-45, 1e-20], np.float32)
    r = np_hypot(x, y)
    assert r.dtype == np.float32
    assert r.tolist() == [5.0, 1.4142135555081815e-30, np.inf, np.inf, np.inf, np.inf, 0.0,
                          1.401298464324817e-45, 1.0000000200408773e+20]
    assert np.isnan(np_hypot(np.float32([np.nan]), np.float32([1.0]))[0])
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2 ** 32, (2, 200000), dtype=np.uint64).astype(np.uint32)
    a, b = bits.view(np.float32)
    with np.errstate(all="ignore"):  # NumPy warns where the result overflows
        want = np.hypot(a, b)
    got = np_hypot(a, b)
    ok = np.isnan(want) == np.isnan(got)
    assert ok.all() and np.array_equal(got[~np.isnan(want)].view(np.uint32), want[~np.isnan(want)].view(np.uint32))
