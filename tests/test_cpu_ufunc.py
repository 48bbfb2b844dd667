"""CPU @vectorize (targets 'cpu' and 'parallel'): real numpy.ufuncs made from compiled loops, and
the lazy DUFunc. Every result is checked against NumPy running the Python function
(np.vectorize over py_func) or NumPy's own operators; the types against what Numba 0.62 gives."""
import math
import os

import numpy as np
import pytest

import cujit
from cujit import vectorize, float32, float64
from memory_probe import held_bytes

SQRT_2PI = math.sqrt(2 * math.pi)


def reference(f, *args, otypes=None):
    return np.vectorize(f.py_func if hasattr(f, "py_func") else f, otypes=otypes)(*args)


# --- the course's examples -------------------------------------------------------------------

@vectorize
def add_ten(x):
    return x + 10


@vectorize
def cpu_gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)


@vectorize
def zero_suppress(waveform_value, threshold):
    if waveform_value < threshold:
        result = 0
    else:
        result = waveform_value
    return result


@vectorize
def add_n(x, y):
    return x + y


def test_add_ten():
    r = add_ten(np.arange(10))
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, np.arange(10, 20))
    assert add_ten.types == ["l->l"]
    assert isinstance(add_ten.ufunc, np.ufunc)
    assert add_ten.__name__ == "add_ten" and add_ten.nin == 1 and add_ten.nout == 1


def test_gaussian_pdf():
    x = np.random.default_rng(0).uniform(-3, 3, 100000).astype(np.float32)
    r = cpu_gaussian_pdf(x, 0.0, 1.0)
    assert r.dtype == np.float64
    assert cpu_gaussian_pdf.types == ["fdd->d"]
    expect = np.exp(-0.5 * ((x.astype(np.float64) - 0.0) / 1.0)**2) / (1.0 * SQRT_2PI)
    np.testing.assert_allclose(r, expect, rtol=1e-12)


def test_zero_suppress():
    rng = np.random.default_rng(1)
    waveform = rng.integers(-5, 40, 1000).astype(np.int16)
    r = zero_suppress(waveform, 15)
    # Numba: int16 and the int64 literal unify to int64.
    assert zero_suppress.types == ["hl->l"]
    np.testing.assert_array_equal(r, np.where(waveform < 15, 0, waveform))
    np.testing.assert_array_equal(r, reference(zero_suppress, waveform, 15))


def test_add_n():
    x = np.arange(100, dtype=np.int64)
    y = np.arange(100, dtype=np.int64)[::-1].copy()
    np.testing.assert_array_equal(add_n(x, y), x + y)
    assert "ll->l" in add_n.types


# --- declared signatures: a real numpy.ufunc -------------------------------------------------

@vectorize(["float32(float32, float32)", float64(float64, float64), "int64(int64, int64)"])
def hypot_ish(x, y):
    return (x * x + y * y) ** 0.5 if x > 1e30 else x * x + y * y


@vectorize(["int64(int64, int64)", "float64(float64, float64)"], identity=0)
def plus(x, y):
    return x + y


@vectorize(["int64(int64, int64)"], identity=1)
def times(x, y):
    return x * y


def test_is_a_numpy_ufunc():
    assert isinstance(plus, np.ufunc)
    assert plus.types == ["ll->l", "dd->d"]
    assert (plus.nin, plus.nout, plus.nargs, plus.ntypes) == (2, 1, 3, 2)
    assert plus.__name__ == "plus"
    assert plus.identity == 0 and times.identity == 1


def test_multiple_signatures_in_order():
    assert hypot_ish.types == ["ff->f", "dd->d", "ll->l"]
    for dt in (np.float32, np.float64, np.int64):
        a = np.arange(7).astype(dt)
        b = (np.arange(7) * 3 - 5).astype(dt)
        r = hypot_ish(a, b)
        assert r.dtype == dt
        np.testing.assert_allclose(r, a * a + b * b)


def test_casting_picks_a_loop():
    # int16 casts safely to int64 (the first loop that takes it); float32 has its own loop.
    r = plus(np.arange(5, dtype=np.int16), np.int16(2))
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, np.arange(5) + 2)
    r = plus(np.arange(5, dtype=np.float32), 0.5)
    assert r.dtype == np.float64
    with pytest.raises(TypeError):
        plus(np.arange(3, dtype=np.uint64), np.arange(3, dtype=np.int64).astype(np.complex128))


def test_out_and_broadcasting():
    a = np.arange(12.0).reshape(3, 4)
    b = np.arange(4.0)
    out = np.empty((3, 4))
    r = plus(a, b, out=out)
    assert r is out
    np.testing.assert_array_equal(out, a + b)
    col = np.arange(3.0)[:, None]
    np.testing.assert_array_equal(plus(col, b), col + b)
    # A strided view and a transposed (non-contiguous) operand take the strided path.
    np.testing.assert_array_equal(plus(a[:, ::2], a.T[::2, :3].T), a[:, ::2] + a.T[::2, :3].T)
    # In place: the output is an input.
    c = np.arange(10.0)
    plus(c, c, out=c)
    np.testing.assert_array_equal(c, 2 * np.arange(10.0))


def test_reduce_accumulate_outer():
    a = np.arange(1, 11)
    assert plus.reduce(a) == a.sum()
    assert times.reduce(a) == np.prod(a)
    np.testing.assert_array_equal(plus.accumulate(a), np.cumsum(a))
    np.testing.assert_array_equal(plus.outer(np.arange(3), np.arange(4)), np.add.outer(np.arange(3), np.arange(4)))
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(plus.reduce(m, axis=1), m.sum(axis=1))
    assert plus.reduce(np.array([], dtype=np.int64)) == 0  # the identity
    d = np.zeros(4, dtype=np.int64)
    plus.at(d, [0, 0, 3], 5)
    np.testing.assert_array_equal(d, [10, 0, 0, 5])


def test_accumulate_is_not_taken_as_dense():
    # Bug found while building: NumPy's accumulate passes the output shifted by one element as
    # the first input, with every step the itemsize; the dense path (vectorised, __restrict)
    # added stale values. Overlapping operands now take the strided loop.
    a = np.random.default_rng(5).random(10000)
    np.testing.assert_allclose(plus.accumulate(a), np.cumsum(a), rtol=1e-12)


def test_scalar_broadcast_paths():
    # Each input as a broadcast scalar (step 0) in turn, and all of them: the dense loop's
    # compile-time variants.
    x = np.linspace(-1, 1, 1001)

    @vectorize(["float64(float64, float64, float64)"])
    def fma3(a, b, c):
        return a * b + c

    for args in [(x, 2.0, 3.0), (2.0, x, 3.0), (2.0, 3.0, x), (x, x, 1.0), (x, 2.0, x)]:
        np.testing.assert_allclose(fma3(*args), args[0] * args[1] + args[2])
    assert fma3(2.0, 3.0, 1.0) == 7.0


def test_many_inputs_strided_and_dense():
    @vectorize(["float64(float64, float64, float64, float64, float64)"])
    def five(a, b, c, d, e):
        return a + 2 * b + 3 * c + 4 * d + 5 * e

    x = np.arange(20.0)
    np.testing.assert_array_equal(five(x, x, x, x, x), 15 * x)
    np.testing.assert_array_equal(five(x, 1.0, x, 1.0, x[::-1]), x + 2 + 3 * x + 4 + 5 * x[::-1])


def test_bool_and_small_ints():
    @vectorize(["boolean(int8, uint8)"])
    def gt(a, b):
        return a > b

    a = np.arange(-5, 5, dtype=np.int8)
    b = np.full(10, 2, dtype=np.uint8)
    r = gt(a, b)
    assert r.dtype == np.bool_
    np.testing.assert_array_equal(r, a.astype(np.int64) > 2)


def test_signature_objects_and_doc():
    @vectorize([float32(float32)])
    def half(x):
        "Halves x."
        return x / 2

    assert half.types == ["f->f"]
    assert "Halves x." in half.__doc__
    np.testing.assert_array_equal(half(np.arange(4, dtype=np.float32)), np.arange(4, dtype=np.float32) / 2)


def test_bad_identity():
    with pytest.raises(ValueError, match="Invalid identity"):
        vectorize(["int64(int64, int64)"], identity=7)(lambda x, y: x)


def test_signature_with_wrong_arity():
    with pytest.raises(cujit.TypingError, match="argument"):
        @vectorize(["float64(float64, float64)"])
        def one(x):
            return x


def test_generated_loop_exists():
    loops = cujit._core.NumpyLoops(cujit.decorators.capture(plus_source), False, 2, [])
    assert loops.add(["float32(float32, float32)"]) == ["ff->f"]
    src = loops.sources[0]
    assert 'extern "C" CJ_EXPORT void cj_npyloop_plus_source_0(char** args, const int64_t* dims' in src
    assert "cj::npy_ufunc_loop<false, float, float, float>" in src


def plus_source(x, y):
    return x + y


# --- the lazy DUFunc --------------------------------------------------------------------------

def test_lazy_compiles_per_types_and_reuses_by_casting():
    @vectorize
    def inc(x):
        return x + 1

    assert inc.types == [] and isinstance(inc.ufunc, np.ufunc)
    np.testing.assert_array_equal(inc(np.arange(3, dtype=np.int32)), [1, 2, 3])
    assert inc.types == ["i->l"]
    before = inc.ufunc
    # int16 casts safely to int32: NumPy picks the existing loop, nothing is compiled.
    r = inc(np.arange(3, dtype=np.int16))
    assert r.dtype == np.int64 and inc.types == ["i->l"] and inc.ufunc is before
    # float32 does not: a new loop, in a new ufunc.
    r = inc(np.arange(3, dtype=np.float32))
    assert r.dtype == np.float64  # float32 + int64 literal is float64, as in Numba
    assert inc.types == ["i->l", "f->d"] and inc.ufunc is not before
    # Python scalars: int64, float64, bool.
    assert inc(5) == 6 and inc(2.5) == 3.5
    assert inc.types == ["i->l", "f->d", "l->l", "d->d"]
    # bool casts safely to int32: the first loop serves it (Numba's types are the same).
    assert inc(True) == 2 and inc.types == ["i->l", "f->d", "l->l", "d->d"]


def test_lazy_numpy_scalars_out_and_methods():
    @vectorize(identity=0)
    def add(x, y):
        return x + y

    assert add(np.int16(3), 2) == 5 and add.types == ["hl->l"]
    out = np.zeros(4)
    add(np.arange(4.0), 1.0, out=out)
    np.testing.assert_array_equal(out, np.arange(4.0) + 1)
    assert add.reduce(np.arange(5.0)) == 10.0
    np.testing.assert_array_equal(add.accumulate(np.arange(4.0)), [0, 1, 3, 6])
    np.testing.assert_array_equal(add.outer(np.arange(2.0), np.arange(3.0)), np.add.outer(np.arange(2.0), np.arange(3.0)))
    assert add.identity == 0
    assert add.py_func(1, 2) == 3
    add.add("float32(float32, float32)")
    assert add.types[-1] == "ff->f"


def test_lazy_wrong_argument_count():
    with pytest.raises(TypeError):
        add_n(np.arange(3))


# --- target='parallel' -------------------------------------------------------------------------

@vectorize(["float64(float64, float64)", "float32(float32, float32)"], target="parallel")
def par_pdf(x, sigma):
    return math.exp(-0.5 * (x / sigma)**2) / (sigma * SQRT_2PI)


def test_parallel_large_array():
    x = np.random.default_rng(2).uniform(-4, 4, 1 << 20)
    r = par_pdf(x, 1.5)
    np.testing.assert_allclose(r, np.exp(-0.5 * (x / 1.5)**2) / (1.5 * SQRT_2PI), rtol=1e-13)
    # Strided and small inputs (below the parallel threshold) too.
    np.testing.assert_allclose(par_pdf(x[::3], 1.5), r[::3], rtol=1e-13)
    np.testing.assert_allclose(par_pdf(x[:100], 1.5), r[:100], rtol=1e-13)
    assert isinstance(par_pdf, np.ufunc)


def test_parallel_loop_is_openmp():
    loops = cujit._core.NumpyLoops(cujit.decorators.capture(plus_source), True, 2, [])
    loops.add(["float64(float64, float64)"])
    assert "cj::npy_ufunc_loop<true, double, double, double>" in loops.sources[0]


def test_parallel_lazy():
    f = vectorize(target="parallel")(plus_source)
    a = np.arange(1 << 16, dtype=np.int64)
    np.testing.assert_array_equal(f(a, a), 2 * a)


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the RSS from /proc (or ASan's heap)")
@pytest.mark.parametrize("target", ["cpu", "parallel"])
def test_arrays_made_per_element_are_freed(target):
    # Each element makes 16 KB of arrays: 50,000 elements x 3 calls would keep 2.4 GB if the
    # loop did not free them after each element.
    @vectorize(["float64(int64)"], target=target)
    def triangle(n):
        return np.arange(n % 100 + 1.0).sum() + np.zeros(2000).sum()

    x = np.arange(50_000)
    triangle(x[:10])
    before = held_bytes() / 1e6
    for _ in range(3):
        np.testing.assert_allclose(triangle(x), (x % 100) * (x % 100 + 1) / 2)
    assert held_bytes() / 1e6 - before < 200
