"""guvectorize(..., target='cuda'): generalized CUDA ufuncs, compared with NumPy, on the simulator
and on the GPU. The gufuncs are defined once at module level: each new shape of call compiles one
wrapper kernel (about half a second with the host compiler), so the tests reuse them."""
import math

import numpy as np
import pytest

import cujit
from cujit import cuda, guvectorize, float32, void


@guvectorize(['void(float32[:], float32[:], float32[:])',
              'void(float64[:], float64[:], float64[:])'], '(n),(n)->()', target='cuda')
def dot(a, b, res):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    res[0] = s


@guvectorize([void(float32[:, :], float32[:, :], float32[:, :])], '(m,n),(n,p)->(m,p)',
             target='cuda')
def matmul(A, B, C):
    m, n = A.shape
    p = B.shape[1]
    for i in range(m):
        for j in range(p):
            acc = 0.0
            for k in range(n):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@cuda.jit(device=True)
def scaled(x, a):
    return a * x


@guvectorize(['void(float64[:], float64, float64[:])',
              'void(float32[:], float32, float32[:])'], '(n),()->(n)', target='cuda')
def axpy(x, a, out):
    for i in range(x.shape[0]):
        out[i] = scaled(x[i], a) + math.sqrt(x[i])  # device functions and math work in the body


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n)->(),()', target='cuda')
def ends(x, first, last):
    first[0] = x[0]
    last[0] = x[x.shape[0] - 1]


@guvectorize(['void(int32[:], boolean[:])', 'void(int64[:], boolean[:])'], '(n)->()',
             target='cuda')
def any_negative(x, res):
    res[0] = False
    for i in range(x.shape[0]):
        if x[i] < 0:
            res[0] = True


def rng(*shape, dtype=np.float32):
    return np.random.default_rng(sum(shape) + len(shape)).random(shape).astype(dtype)


def test_dot_product(target):
    a, b = rng(5, 4), rng(5, 4)[::-1].copy()
    r = dot(a, b)
    assert isinstance(r, np.ndarray) and r.dtype == np.float32 and r.shape == (5,)
    np.testing.assert_allclose(r, (a * b).sum(axis=1), rtol=1e-5)
    # No loop dimension: a 0-d result, as in Numba.
    r = dot(a[1], b[2])
    assert isinstance(r, np.ndarray) and r.shape == ()
    np.testing.assert_allclose(r, a[1] @ b[2], rtol=1e-5)
    # Lists are inputs too (float64 by NumPy's rule).
    r = dot([1.0, 2.0], [3.0, 4.0])
    assert r.dtype == np.float64 and float(r) == 11.0


def test_matmul_with_loop_dimension(target):
    A, B = rng(6, 2, 3), rng(6, 3, 4)
    C = matmul(A, B)
    assert C.shape == (6, 2, 4) and C.dtype == np.float32
    np.testing.assert_allclose(C, A @ B, rtol=1e-5)
    # One B for every A: an input with fewer loop dimensions.
    np.testing.assert_allclose(matmul(A, B[2]), A @ B[2], rtol=1e-5)
    # Non-contiguous views compile their own specialisation and give the same answer.
    At = rng(6, 3, 2).transpose(0, 2, 1)
    np.testing.assert_allclose(matmul(At, B), At @ B, rtol=1e-5)


def test_scalar_inputs(target):
    x = rng(3, 5, dtype=np.float64)
    ref = lambda x, a: a * x + np.sqrt(x)  # noqa: E731
    r = axpy(x, 2.5)  # a Python float: float64, which matches the float64 signature exactly
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, ref(x, 2.5))
    x32 = x.astype(np.float32)
    r = axpy(x32, 2.5)  # the array decides: float32, and the scalar adapts (as in Numba)
    assert r.dtype == np.float32
    np.testing.assert_allclose(r, ref(x32, np.float32(2.5)), rtol=1e-6)
    np.testing.assert_allclose(axpy(x32, np.float32(-1)), ref(x32, -1), rtol=1e-6)
    # A '()' input may also be an array: one scalar per loop index.
    a = np.array([1.0, -2.0, 3.0])
    np.testing.assert_allclose(axpy(x, a), ref(x, a[:, None]))
    np.testing.assert_allclose(axpy(x[0], 4.0), ref(x[0], 4.0))  # no loop dimension


def test_broadcasting_of_loop_dimensions(target):
    a, b = rng(3, 1, 4), rng(2, 4)
    r = dot(a, b)  # loop shapes (3, 1) and (2,) broadcast to (3, 2)
    assert r.shape == (3, 2)
    np.testing.assert_allclose(r, (a * b).sum(axis=-1), rtol=1e-5)
    c = rng(1, 4)  # a size-1 loop dimension against 5
    d = rng(5, 4)
    np.testing.assert_allclose(dot(c, d), (c * d).sum(axis=-1), rtol=1e-5)
    np.testing.assert_allclose(dot(d, d[0]), d @ d[0], rtol=1e-5)
    with pytest.raises(ValueError, match="outer dimension mismatch"):
        dot(rng(3, 4), rng(2, 4))


def test_out_argument(target):
    a, b = rng(4, 3), rng(4, 3)
    ref = (a * b).sum(axis=1)
    out = np.zeros(4, np.float32)
    assert dot(a, b, out) is out  # outputs passed positionally after the inputs
    np.testing.assert_allclose(out, ref, rtol=1e-5)
    out2 = np.zeros(4, np.float32)
    assert dot(a, b, out=out2, stream=0) is out2
    np.testing.assert_allclose(out2, ref, rtol=1e-5)
    d_out = cuda.device_array(4, np.float32)
    assert dot(a, b, d_out) is d_out  # a device output with host inputs stays on the device
    np.testing.assert_allclose(d_out.copy_to_host(), ref, rtol=1e-5)
    zero_d = np.zeros((), np.float32)
    assert dot(a[0], b[0], out=zero_d) is zero_d
    np.testing.assert_allclose(zero_d, a[0] @ b[0], rtol=1e-5)
    d_zero_d = cuda.device_array((), np.float32)
    assert dot(a[1], b[1], d_zero_d) is d_zero_d
    np.testing.assert_allclose(d_zero_d.copy_to_host(), a[1] @ b[1], rtol=1e-5)
    first, last = np.zeros(4), np.zeros(4)
    x = a.astype(np.float64)
    assert ends(x, out=(first, last)) == (first, last)
    np.testing.assert_array_equal(first, x[:, 0])
    np.testing.assert_array_equal(last, x[:, -1])
    f, l = ends(x)  # noqa: E741
    np.testing.assert_array_equal(f, x[:, 0])
    np.testing.assert_array_equal(l, x[:, -1])


def test_device_arrays_give_device_results(target):
    a, b = rng(4, 3), rng(4, 3)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    r = dot(d_a, d_b)
    assert isinstance(r, cuda.DeviceNDArray) and r.shape == (4,)
    np.testing.assert_allclose(r.copy_to_host(), (a * b).sum(axis=1), rtol=1e-5)
    r = dot(d_a, b)  # any device input makes the result a device array, as in Numba
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_allclose(r.copy_to_host(), (a * b).sum(axis=1), rtol=1e-5)
    h = np.zeros(4, np.float32)
    assert dot(d_a, d_b, h) is h  # a host output given with device inputs is filled and returned
    np.testing.assert_allclose(h, (a * b).sum(axis=1), rtol=1e-5)
    r = dot(cuda.to_device(a[0]), cuda.to_device(b[0]))
    assert isinstance(r, cuda.DeviceNDArray) and r.shape == ()
    np.testing.assert_allclose(r.copy_to_host(), a[0] @ b[0], rtol=1e-5)
    x = a.astype(np.float64)
    r = axpy(cuda.to_device(x), 3.0, stream=0)
    assert isinstance(r, cuda.DeviceNDArray)
    np.testing.assert_allclose(r.copy_to_host(), 3.0 * x + np.sqrt(x))


def test_signature_selected_by_dtype(target):
    assert dot.types == ["ff->f", "dd->d"] and dot.ntypes == 2
    assert (dot.nin, dot.nout, dot.nargs, dot.signature) == (2, 1, 3, "(n),(n)->()")
    a64 = rng(3, 4, dtype=np.float64)
    r64 = dot(a64, a64)
    assert r64.dtype == np.float64
    np.testing.assert_allclose(r64, (a64 * a64).sum(axis=1))
    assert dot(a64.astype(np.float32), a64.astype(np.float32)).dtype == np.float32
    with pytest.raises(TypeError, match="no matching signature"):
        dot(a64.astype(np.int64), a64.astype(np.int64))
    # No exact match: numba-cuda takes the first signature whose dtypes cast to the inputs'
    # (float32 -> float64 can) and converts the host inputs to it.
    mixed = dot(a64, a64.astype(np.float32))
    assert mixed.dtype == np.float32
    np.testing.assert_allclose(mixed, (a64 * a64).sum(axis=1), rtol=1e-5)


def test_integer_and_boolean_types_and_a_grid_stride_loop(target, monkeypatch):
    assert any_negative.types == ["i->?", "l->?"]
    x = np.random.default_rng(0).integers(-100, 3, size=(3000, 4))
    r = any_negative(x)
    assert r.dtype == np.bool_
    np.testing.assert_array_equal(r, (x < 0).any(axis=1))
    # Fewer blocks than loop indices: each thread takes several (a grid-stride loop).
    monkeypatch.setattr(type(any_negative), "_MAX_BLOCKS", 2)
    x32 = x.astype(np.int32)[::-1]
    np.testing.assert_array_equal(any_negative(x32), (x32 < 0).any(axis=1))


def test_call_errors(target):
    a = rng(2, 4)
    with pytest.raises(TypeError, match=r"^This gufunc accepts 2 positional arguments \(when providing input only\) or 3 positional arguments \(when providing input and output\)\. Got 1 positional argument\.$"):
        dot(a)
    with pytest.raises(TypeError, match="Got 4 positional arguments"):
        dot(a, a, a, a)
    with pytest.raises(ValueError, match=r"core dimension 'n' mismatch.*n = 3.*n = 4"):
        dot(rng(4), rng(3))
    with pytest.raises(ValueError, match="core dimension 'n' mismatch"):
        matmul(rng(2, 3), rng(2, 3))
    with pytest.raises(ValueError, match="insufficient inner dimension"):
        dot(np.float32(1), rng(4))
    with pytest.raises(ValueError, match="output shape mismatch"):
        dot(a, a, np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="incompatible dtype"):
        dot(a, a, np.zeros(2, np.float64))
    with pytest.raises(ValueError, match="^cannot specify argument 'out' as both positional and keyword$"):
        dot(a, a, np.zeros(2, np.float32), out=np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="unexpected keyword argument 'where'"):
        dot(a, a, where=True)
    np.testing.assert_allclose(dot(a, a), (a * a).sum(axis=1), rtol=1e-5)  # still usable


@pytest.mark.parametrize("layout, error, match", [
    ("(n),(n)", ValueError, "exactly one '->'"),
    ("(n),(n)->", ValueError, "at least one output"),
    ("(n)(n)->()", ValueError, "expected ','"),
    ("n,(n)->()", ValueError, "expected '\\('"),
    ("(n+1),(n)->()", ValueError, "expected a name"),
    ("(3),(n)->()", ValueError, "fixed-size"),
    ("(n),(n)->(m)", NameError, "undefined output symbols: m"),  # NameError as in Numba
    ("(n),(n)->(m)", ValueError, "undefined output symbols: m"),  # and a ValueError too
    (42, TypeError, "must be a string"),
])
def test_bad_layouts(target, layout, error, match):
    with pytest.raises(error, match=match):
        guvectorize(['void(float32[:], float32[:], float32[:])'], layout, target='cuda')


def f3(a, b, c):
    c[0] = a[0] + b[0]


@pytest.mark.parametrize("sigs, error, match", [
    (['void(float32[:], float32[:])'], TypeError, "has 2 argument"),
    (['void(float32[:, :], float32[:], float32[:])'], TypeError, "input #1 is a 2-D array"),
    (['void(float32, float32[:], float32[:])'], TypeError, "input #1 is the scalar float32"),
    (['float32(float32[:], float32[:], float32[:])'], TypeError,
     "guvectorized functions cannot return values: .* specifies float32 return type"),
    ([], TypeError, "needs explicit signatures"),
])
def test_bad_signatures(target, sigs, error, match):
    with pytest.raises(error, match=match):
        guvectorize(sigs, '(n),(n)->()', target='cuda')(f3)


def test_decorator_errors(target):
    with pytest.raises(TypeError, match="output #1 is the scalar float64"):
        guvectorize(['void(float64[:], float64)'], '(n)->()', target='cuda')(lambda a, r: None)
    with pytest.raises(TypeError, match="must take exactly 3 arguments"):
        guvectorize(['void(float32[:], float32[:], float32[:])'], '(n),(n)->()',
                    target='cuda')(lambda a, b: None)
    # The default target is the CPU, where this is a NumPy gufunc (tests/test_cpu_gufunc.py).
    assert isinstance(guvectorize(['void(float32[:], float32[:], float32[:])'], '(n),(n)->()')(f3),
                      np.ufunc)
    # numba-cuda's refusals of target options, word for word
    sigs3 = ['void(float32[:], float32[:], float32[:])']
    guvectorize(sigs3, '(n),(n)->()', target='cuda', nopython=True)(f3)
    with pytest.raises(TypeError, match="^nopython flag must be True$"):
        guvectorize(sigs3, '(n),(n)->()', target='cuda', nopython=False)
    with pytest.raises(TypeError, match="^The following target options are not supported: 'what1', 'ever2'$"):
        guvectorize(sigs3, '(n),(n)->()', target='cuda', what1=True, ever2=False)
    with pytest.raises(ValueError, match="unknown guvectorize target"):
        guvectorize(['void(float32[:], float32[:], float32[:])'], '(n),(n)->()', target='gpu')
    with pytest.raises(TypeError, match="needs a layout"):
        guvectorize(['void(float32[:], float32[:], float32[:])'], target='cuda')
    # Typing errors show at the decorator, at the user's line, as in Numba.
    with pytest.raises(cujit.TypingError, match="not_defined_anywhere"):
        @guvectorize(['void(float32[:], float32[:])'], '(n)->()', target='cuda')
        def bad(a, r):
            r[0] = not_defined_anywhere  # noqa: F821


@guvectorize(['(float32[:], float32[:])'], '(i)->()', target='cuda')
def l2_norm(vec, out):
    acc = 0.0
    for value in vec:
        acc += value ** 2
    out[0] = math.sqrt(acc)


def test_course_l2_norm_casts_float64_host_input(target):
    # Seed 002's appendix: float64 coordinates into a float32-only CUDA gufunc. numba-cuda takes
    # the first signature whose dtypes cast to the inputs' and converts host inputs to it.
    angles = np.random.default_rng(3).uniform(-np.pi, np.pi, 10)
    coords = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    r = l2_norm(coords)
    assert r.dtype == np.float32 and r.shape == (10,)
    np.testing.assert_allclose(r, 1.0, rtol=1e-6)
    with pytest.raises(TypeError, match="does not support .astype"):
        l2_norm(cuda.to_device(coords))
    with pytest.raises(TypeError, match="no matching signature"):
        l2_norm(np.ones((2, 2), np.bool_))
