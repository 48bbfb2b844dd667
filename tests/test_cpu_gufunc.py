"""CPU @guvectorize (targets 'cpu' and 'parallel'): real NumPy gufuncs. Results are checked
against NumPy (matmul, norms) or the Python function run by np.vectorize with the same layout."""
import math

import numpy as np
import pytest

import cujit
from cujit import guvectorize, float64, void
from cujit.gufunc import GufuncLayoutError


@guvectorize(['(float32[:], float32[:])'], '(i)->()')
def l2_norm(vec, out):
    acc = 0.0
    for value in vec:
        acc += value**2
    out[0] = math.sqrt(acc)


def test_l2_norm_course_example():
    angles = np.random.uniform(-np.pi, np.pi, 10)
    coords = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    assert isinstance(l2_norm, np.ufunc) and l2_norm.signature == "(i)->()"
    assert l2_norm.types == ["f->f"]
    r = l2_norm(coords.astype(np.float32))
    assert r.dtype == np.float32 and r.shape == (10,)
    np.testing.assert_allclose(r, 1.0, rtol=1e-6)
    # NumPy's rule, as with Numba's CPU gufunc: float64 does not cast safely to the float32 loop.
    with pytest.raises(TypeError, match="safe"):
        l2_norm(coords)
    # Asking for the float32 loop casts (same_kind), as NumPy allows.
    np.testing.assert_allclose(l2_norm(coords, dtype=np.float32), 1.0, rtol=1e-6)
    out = np.empty(10, dtype=np.float32)
    l2_norm(coords.astype(np.float32), out=out)
    np.testing.assert_allclose(out, 1.0, rtol=1e-6)


@guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])',
              '(float32[:,:], float32[:,:], float32[:,:])'], '(m,n),(n,p)->(m,p)')
def matmul(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            acc = 0.0
            for k in range(a.shape[1]):
                acc += a[i, k] * b[k, j]
            c[i, j] = acc


def test_matmul_2d_core_dims():
    rng = np.random.default_rng(0)
    a = rng.random((6, 3, 4))
    b = rng.random((6, 4, 5))
    r = matmul(a, b)
    assert r.shape == (6, 3, 5) and r.dtype == np.float64
    np.testing.assert_allclose(r, a @ b, rtol=1e-12)
    # Broadcast loop dimensions, a non-contiguous core (transposed) and float32.
    bt = np.ascontiguousarray(rng.random((5, 4))).T
    np.testing.assert_allclose(matmul(a, bt), a @ bt, rtol=1e-12)
    f = matmul(a.astype(np.float32), b.astype(np.float32))
    assert f.dtype == np.float32
    np.testing.assert_allclose(f, a @ b, rtol=1e-5)
    assert matmul.types == ["dd->d", "ff->f"]
    with pytest.raises(ValueError):
        matmul(a, a)  # core dimension n mismatch, found by NumPy


@guvectorize(['(float64[:], float64, float64[:])', '(int64[:], int64, int64[:])'], '(n),()->(n)')
def scale_add(v, s, out):
    for i in range(v.shape[0]):
        out[i] = v[i] * s + i


def test_scalar_input():
    v = np.arange(12.0).reshape(3, 4)
    s = np.array([1.0, 2.0, 3.0])
    r = scale_add(v, s[:, None][:, 0])
    np.testing.assert_array_equal(r, v * s[:, None] + np.arange(4))
    np.testing.assert_array_equal(scale_add(v, 2.0), v * 2 + np.arange(4))
    # NumPy takes the first loop its safe casting allows: int64 casts safely to float64.
    ri = scale_add(np.arange(4), 3)
    assert ri.dtype == np.float64
    np.testing.assert_array_equal(ri, np.arange(4) * 3 + np.arange(4))
    ri = scale_add(np.arange(4), 3, out=np.zeros(4, dtype=np.int64), dtype=np.int64)
    assert ri.dtype == np.int64
    out = np.zeros((3, 4))
    scale_add(v, 0.5, out)
    np.testing.assert_array_equal(out, v * 0.5 + np.arange(4))


def test_parallel_gufunc():
    @guvectorize([void(float64[:], float64[:], float64[:])], '(n),(n)->()', target='parallel')
    def dot(a, b, out):
        acc = 0.0
        for i in range(a.shape[0]):
            acc += a[i] * b[i]
        out[0] = acc

    rng = np.random.default_rng(3)
    a = rng.random((20000, 8))
    b = rng.random((20000, 8))
    np.testing.assert_allclose(dot(a, b), np.einsum("ij,ij->i", a, b), rtol=1e-12)
    np.testing.assert_allclose(dot(a[:3], b[0]), a[:3] @ b[0], rtol=1e-12)


def test_bad_layout_reuses_parse_layout_errors():
    with pytest.raises(ValueError, match="exactly one '->'"):
        guvectorize(['(float64[:], float64[:])'], '(n)')
    with pytest.raises(GufuncLayoutError, match="undefined output symbols: m"):
        guvectorize(['(float64[:], float64[:])'], '(n)->(m)')
    with pytest.raises(TypeError, match="layout has 1 input"):
        guvectorize(['(float64[:], float64[:], float64[:])'], '(n)->()')(lambda a, b, c: None)
    with pytest.raises(TypeError, match="must take exactly 2 arguments"):
        guvectorize(['(float64[:], float64[:])'], '(n)->()')(lambda a, b, c: None)
    with pytest.raises(TypeError, match="is a 2-D array, but the layout gives it 1"):
        guvectorize(['(float64[:,:], float64[:])'], '(n)->()')(lambda a, b: None)
    with pytest.raises(TypeError, match="output #1 is the scalar float64"):
        guvectorize(['(float64[:], float64)'], '(n)->()')(lambda a, b: None)


def test_generated_gufunc_loop():
    g = cujit.cpu_ufunc.GUFunc(_first, '(n)->()')
    g(np.arange(3.0), np.zeros(()))
    src = g.inspect_sources()[0]
    assert 'extern "C" CJ_EXPORT void cj_gufunc__first_0(char** args' in src
    assert "cj::npy_core_view<double, 1, 1>(args[0] + i * steps[0], dims, steps + 2, cj_dims0)" in src


def _first(a, out):
    out[0] = a[0]


def test_lazy_gufunc_compiles_per_call_types():
    @guvectorize('(n)->()')
    def total(a, out):
        acc = 0
        for x in a:
            acc += x
        out[0] = acc

    assert total.types == []
    with pytest.raises(TypeError, match="every output must be passed"):
        total(np.arange(4.0))
    o = np.zeros(3)
    total(np.arange(12.0).reshape(3, 4), o)
    np.testing.assert_array_equal(o, np.arange(12.0).reshape(3, 4).sum(axis=1))
    assert total.types == ["d->d"]
    oi = np.zeros(2, dtype=np.int64)
    total(np.arange(6).reshape(2, 3), oi)
    np.testing.assert_array_equal(oi, [3, 12])
    assert total.types == ["d->d", "l->l"]
    # Once a loop exists NumPy allocates the outputs itself (Numba's GUFunc refuses this call).
    assert total(np.arange(4, dtype=np.int16)) == 6
