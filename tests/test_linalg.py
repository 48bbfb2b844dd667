"""np.dot, `@`, np.vdot and np.linalg in @jit code (issue 20), through the BLAS/LAPACK NumPy
bundles. The reference Numba needs SciPy for these (not installed where these were pinned), so
results are NumPy's, and the checks, messages, result types and layouts are Numba 0.68's
(numba/np/linalg.py: dot_2_impl, inv_impl, solve_impl, det_impl via slogdet, cho_impl)."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

A = np.array([[2., 1.], [1., 3.]])
SINGULAR = np.array([[1., 2.], [2., 4.]])


@njit
def dot(a, b):
    return np.dot(a, b)


@njit
def matmul(a, b):
    return a @ b


@njit
def vdot(a, b):
    return np.vdot(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_dot_shapes_and_dtypes(dtype):
    rng = np.random.RandomState(0)
    m = rng.rand(3, 4).astype(dtype)
    n = rng.rand(4, 2).astype(dtype)
    v = rng.rand(4).astype(dtype)
    w = rng.rand(3).astype(dtype)
    tol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    for got, want in [(dot(m, n), m @ n), (dot(m, v), m @ v), (dot(w, m), w @ m), (matmul(m, n), m @ n),
                      (matmul(m, v), m @ v)]:
        assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
        np.testing.assert_allclose(got, want, rtol=tol)
    s = dot(v, v)
    np.testing.assert_allclose(s, v @ v, rtol=tol)


def test_dot_of_views_and_empty():
    m = np.arange(12.).reshape(3, 4)
    np.testing.assert_array_equal(dot(m.T, m), m.T @ m)  # F-ordered operand
    np.testing.assert_array_equal(dot(m[:, ::2], m[::2, :2].copy()), m[:, ::2] @ m[::2, :2])
    assert dot(m[1], m[2, ::-1]) == m[1] @ m[2, ::-1]
    z = dot(np.ones((2, 0)), np.ones((0, 3)))
    np.testing.assert_array_equal(z, np.zeros((2, 3)))


def test_vdot_conjugates_first():
    a = np.array([1 + 1j, 2j])
    b = np.array([1 + 0j, 1j])
    assert vdot(a, b) == np.vdot(a, b)
    assert dot(a, b) == np.dot(a, b)
    assert vdot(np.arange(3.), np.arange(3.)) == 5.0


def test_dot_errors():
    with pytest.raises(TypingError, match=r"np.dot\(\) arguments must all have the same dtype"):
        dot(np.arange(3.), np.arange(3., dtype=np.float32))
    with pytest.raises(TypingError, match="only supported on float and complex arrays"):
        dot(np.arange(3), np.arange(3))
    with pytest.raises(ValueError, match=r"incompatible array sizes for np.dot\(a, b\) \(vector \* vector\)"):
        dot(np.arange(3.), np.arange(4.))
    with pytest.raises(ValueError, match=r"\(matrix \* matrix\)"):
        dot(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(TypingError, match="only supported on 1-D arrays"):
        vdot(np.ones((2, 2)), np.ones((2, 2)))


@njit
def inv(a):
    return np.linalg.inv(a)


@njit
def solve(a, b):
    return np.linalg.solve(a, b)


@njit
def det(a):
    return np.linalg.det(a)


@njit
def chol(a):
    return np.linalg.cholesky(a)


def test_inv():
    r = inv(A)
    np.testing.assert_allclose(r, np.linalg.inv(A), rtol=1e-12)
    assert r.dtype == np.float64 and r.flags.f_contiguous  # Numba's inv returns its Fortran copy
    c = np.array([[1 + 1j, 2], [3, 4 - 1j]], dtype=np.complex64)
    np.testing.assert_allclose(inv(c), np.linalg.inv(c), rtol=1e-5)
    assert inv(c).dtype == np.complex64
    assert inv(np.zeros((0, 0))).shape == (0, 0)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is singular to machine precision."):
        inv(SINGULAR)
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square."):
        inv(np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs."):
        inv(np.array([[np.inf, 1.], [1., 1.]]))
    with pytest.raises(TypingError, match=r"np.linalg.inv\(\) only supported on float and complex arrays."):
        inv(np.array([[1, 2], [3, 4]]))
    with pytest.raises(TypingError, match=r"np.linalg.inv\(\) only supported on 2-D arrays."):
        inv(np.ones(3))


def test_solve():
    b1 = np.array([1., 2.])
    b2 = np.array([[1., 2.], [3., 4.]])
    r1 = solve(A, b1)
    np.testing.assert_allclose(r1, np.linalg.solve(A, b1), rtol=1e-12)
    assert r1.shape == (2,)
    r2 = solve(A, b2)
    np.testing.assert_allclose(r2, np.linalg.solve(A, b2), rtol=1e-12)
    assert r2.flags.f_contiguous
    np.testing.assert_allclose(solve(A.T, b1[::-1]), np.linalg.solve(A.T, b1[::-1]), rtol=1e-12)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is singular to machine precision."):
        solve(SINGULAR, b1)
    with pytest.raises(np.linalg.LinAlgError, match="system is not dimensionally valid"):
        solve(A, np.array([1., 2., 3.]))
    with pytest.raises(TypingError, match="homogeneous dtypes"):
        solve(A, b1.astype(np.float32))


def test_det_as_numba_computes_it():
    assert det(A) == pytest.approx(5.0, rel=1e-14)
    assert det(SINGULAR) == 0.0
    assert det(np.zeros((0, 0))) == 1.0
    assert det(np.array([[0., 1.], [1., 0.]])) == pytest.approx(-1.0)
    r = det(np.array([[1., 2.], [3., 4.]], dtype=np.float32))
    assert isinstance(r, float) and r == pytest.approx(-2.0, rel=1e-6)  # float64, as Numba's slogdet path
    c = np.array([[1 + 1j, 2], [3, 4 - 1j]])
    assert det(c) == pytest.approx(np.linalg.det(c))


def test_cholesky():
    r = chol(A)
    np.testing.assert_allclose(r, np.linalg.cholesky(A), rtol=1e-12)
    assert r.flags.c_contiguous
    h = np.array([[4, 1 - 1j], [1 + 1j, 3]], dtype=np.complex128)
    np.testing.assert_allclose(chol(h), np.linalg.cholesky(h), rtol=1e-12)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite."):
        chol(np.array([[1., 2.], [2., 1.]]))


def test_linalg_module_alias():
    import numpy.linalg as la

    @njit
    def f(a):
        return la.inv(a) @ a
    np.testing.assert_allclose(f(A), np.eye(2), atol=1e-12)
