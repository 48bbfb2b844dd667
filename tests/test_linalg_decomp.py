"""np.linalg's decompositions in @jit code (issue 20): eig, eigvals, eigh, eigvalsh, svd, qr, lstsq,
pinv, slogdet, norm, cond, matrix_rank, matrix_power, through the LAPACK NumPy bundles. The
expectations are Numba 0.68's (run with SciPy, which its np.linalg needs): result types, memory
order, LAPACK's sign conventions where the routine fixes them (the same routines Numba calls), its
refusals and its run-time errors (numba/np/linalg.py)."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError

A = np.array([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]])
R = np.arange(6.).reshape(3, 2)
B = np.array([1., 2., 3.])
ROT = np.array([[0., -1.], [1., 0.]])
SINGULAR = np.array([[1., 2.], [2., 4.]])


@njit
def eig(a):
    return np.linalg.eig(a)


@njit
def eigvals(a):
    return np.linalg.eigvals(a)


@njit
def eigh(a):
    return np.linalg.eigh(a)


@njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@njit
def svd(a, full):
    return np.linalg.svd(a, full)


@njit
def svd1(a):
    return np.linalg.svd(a, full_matrices=False)


@njit
def qr(a):
    return np.linalg.qr(a)


@njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)


@njit
def lstsq_rcond(a, b, rc):
    return np.linalg.lstsq(a, b, rcond=rc)


@njit
def pinv(a):
    return np.linalg.pinv(a)


@njit
def slogdet(a):
    return np.linalg.slogdet(a)


@njit
def det(a):
    return np.linalg.det(a)


@njit
def norm(a):
    return np.linalg.norm(a)


@njit
def norm_ord(a, o):
    return np.linalg.norm(a, o)


@njit
def norm_fro(a):
    return np.linalg.norm(a, 'fro')


@njit
def cond(a):
    return np.linalg.cond(a)


@njit
def cond_p(a, p):
    return np.linalg.cond(a, p)


@njit
def rank(a):
    return np.linalg.matrix_rank(a)


@njit
def rank_tol(a, t):
    return np.linalg.matrix_rank(a, tol=t)


@njit
def mpow(a, n):
    return np.linalg.matrix_power(a, n)


def test_eig_matches_numba():
    w, v = eig(A)
    np.testing.assert_allclose(w, [1.26794919, 3., 4.73205081], rtol=1e-8)
    np.testing.assert_allclose(v, [[-0.78867513, -0.57735027, 0.21132487], [0.57735027, -0.57735027, 0.57735027],
                                   [-0.21132487, 0.57735027, 0.78867513]], atol=1e-8)
    assert w.dtype == np.float64 and v.flags.f_contiguous  # Numba: (array(C), array(F))
    np.testing.assert_allclose(eigvals(A), w, rtol=1e-12)
    wc, vc = eig(A.astype(np.complex128))
    assert wc.dtype == np.complex128 and vc.dtype == np.complex128
    np.testing.assert_allclose(A @ vc, vc * wc, atol=1e-12)


def test_eig_of_real_matrix_with_complex_eigenvalues_is_a_value_error():
    # Numba (NumPy < 2.5): a real matrix's eig stays real, so complex eigenvalues raise.
    with pytest.raises(ValueError, match=r"^eig\(\) argument must not cause a domain change\.$"):
        eig(ROT)
    with pytest.raises(ValueError, match=r"^eigvals\(\) argument must not cause a domain change\.$"):
        eigvals(ROT)
    w = eigvals(ROT.astype(np.complex128))
    np.testing.assert_allclose(sorted(w, key=lambda z: z.imag), [-1j, 1j], atol=1e-12)


def test_eigh_order_signs_and_types():
    w, v = eigh(A)
    np.testing.assert_allclose(w, [1.26794919, 3., 4.73205081], rtol=1e-8)  # ascending
    np.testing.assert_allclose(v, [[0.78867513, -0.57735027, 0.21132487], [-0.57735027, -0.57735027, 0.57735027],
                                   [0.21132487, 0.57735027, 0.78867513]], atol=1e-8)
    assert v.flags.f_contiguous
    w32, v32 = eigh(A.astype(np.complex64))
    assert w32.dtype == np.float32 and v32.dtype == np.complex64
    np.testing.assert_allclose(w32, w, rtol=1e-5)
    np.testing.assert_allclose(eigvalsh(A), w, rtol=1e-12)
    assert eigvalsh(A.astype(np.float32)).dtype == np.float32
    # only the lower triangle is read (UPLO='L')
    upper_garbage = A.copy()
    upper_garbage[0, 2] = 100.
    np.testing.assert_allclose(eigvalsh(upper_garbage), w, rtol=1e-12)


def test_svd_shapes_with_full_matrices():
    u, s, vt = svd(R, True)
    assert u.shape == (3, 3) and s.shape == (2,) and vt.shape == (2, 2)
    assert u.flags.f_contiguous and vt.flags.f_contiguous and s.flags.c_contiguous
    np.testing.assert_allclose(s, [7.38648213, 0.66323581], rtol=1e-8)
    np.testing.assert_allclose(u[:, 0], [-0.10818576, -0.48733624, -0.86648672], atol=1e-8)
    np.testing.assert_allclose(vt, [[-0.6011819, -0.79911221], [-0.79911221, 0.6011819]], atol=1e-8)
    u2, s2, vt2 = svd1(R)
    assert u2.shape == (3, 2) and vt2.shape == (2, 2)
    np.testing.assert_allclose(u2 * s2 @ vt2, R, atol=1e-12)
    u3, s3, vt3 = svd(R.astype(np.float32), 1)
    assert u3.dtype == s3.dtype == vt3.dtype == np.float32
    uc, sc, vtc = svd(R.T.astype(np.complex128), False)
    assert sc.dtype == np.float64 and uc.dtype == np.complex128
    np.testing.assert_allclose(uc * sc @ vtc, R.T, atol=1e-12)


def test_qr_matches_numba():
    q, r = qr(R)
    np.testing.assert_allclose(q, [[0., 0.91287093], [-0.4472136, 0.36514837], [-0.89442719, -0.18257419]], atol=1e-8)
    np.testing.assert_allclose(r, [[-4.47213595, -5.81377674], [0., 1.09544512]], atol=1e-8)
    q2, r2 = qr(R.T.copy())  # wide: R has the extra columns
    assert q2.shape == (2, 2) and r2.shape == (2, 3)
    np.testing.assert_allclose(q2 @ r2, R.T, atol=1e-12)
    assert r2[1, 0] == 0.0


def test_lstsq_matches_numba():
    x, res, rk, s = lstsq(R, B)
    np.testing.assert_allclose(x, [-0.5, 1.], atol=1e-12)
    assert res.shape == (1,) and abs(res[0]) < 1e-20
    assert rk == 2 and isinstance(rk, int)
    np.testing.assert_allclose(s, [7.38648213, 0.66323581], rtol=1e-8)
    x2, res2, _, _ = lstsq(R, np.ones((3, 2)))
    np.testing.assert_allclose(x2, [[-1., -1.], [1., 1.]], atol=1e-12)
    assert res2.shape == (2,) and x2.flags.c_contiguous
    # rank-deficient or square: no residuals (Numba's rule)
    _, res3, rk3, _ = lstsq(np.ones((3, 2)), B)
    assert rk3 == 1 and res3.shape == (0,)
    want = np.linalg.lstsq(R, B + 1, rcond=None)[0]
    np.testing.assert_allclose(lstsq_rcond(R, B + 1, 1e-10)[0], want, rtol=1e-10)
    xc = lstsq(R.astype(np.complex128), B.astype(np.complex128) * 1j)[0]
    np.testing.assert_allclose(xc, [-0.5j, 1j], atol=1e-12)


def test_pinv_slogdet_det():
    p = pinv(R)
    np.testing.assert_allclose(p, [[-1.08333333, -0.33333333, 0.41666667], [0.83333333, 0.33333333, -0.16666667]],
                               rtol=1e-7)
    assert p.flags.f_contiguous and p.shape == (2, 3)
    np.testing.assert_allclose(pinv(R.T.copy()), np.linalg.pinv(R.T), atol=1e-12)
    np.testing.assert_array_equal(pinv(np.zeros((2, 3))), np.zeros((3, 2)))
    sign, logdet = slogdet(A)
    assert sign == 1.0 and abs(logdet - np.log(18.)) < 1e-12
    assert slogdet(SINGULAR) == (0.0, -np.inf)
    # Numba: slogdet and det are float64 (complex128) whatever the input's precision
    s32 = slogdet(A.astype(np.float32))
    assert type(s32[0]) is float and type(s32[1]) is float
    assert det(A.astype(np.float32)) == pytest.approx(18.0, rel=1e-6)
    d = det(np.array([[1., 2.], [3., 4.]], dtype=np.float32))
    assert d == -1.9999999442046645  # float32 LAPACK, then float64 arithmetic (Numba's value)
    sc, lc = slogdet(A.astype(np.complex64))
    assert isinstance(sc, complex) and sc == 1 and abs(lc - np.log(18.)) < 1e-6


@pytest.mark.parametrize("o, want", [(2, 5.0), (np.inf, 4.0), (-np.inf, 0.0), (0, 2.0), (1, 7.0),
                                     (3, 4.497941445275415), (0.5, 13.928203230275509)])
def test_vector_norm_orders(o, want):
    assert norm_ord(np.array([3., -4., 0.], np.float32), o) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("o", [np.inf, -np.inf, 1, -1, 2, -2])
def test_matrix_norm_orders(o):
    m = np.array([[1., -2.], [3., 4.]])
    assert norm_ord(m, o) == pytest.approx(np.linalg.norm(m, o), rel=1e-12)


def test_norm_matches_numba():
    assert norm(np.ones(3, np.float32)) == 1.7320507764816284  # float32: nrm2 of the dtype
    m = np.array([[1., -2.], [3., 4.]])
    assert norm(A) == pytest.approx(5.744562646538029, rel=1e-15)
    assert norm(A.T) == norm(A)
    assert norm(np.ones(3, np.complex64)) == 1.7320507764816284
    assert norm_ord(np.array([3., -4., 1.]), True) == 8.0
    assert norm_ord(np.array([3., -4., 0.]), -1.5) == 0.0
    assert norm_ord(np.ones(0), 1) == 0.0 and norm_ord(np.ones((0, 2)), 2) == 0.0
    with pytest.raises(ZeroDivisionError, match="division by zero"):  # Numba's integer power
        norm_ord(np.array([3., -4., 0.]), -1)
    with pytest.raises(ValueError, match=r"^Invalid norm order for matrices\.$"):
        norm_ord(m, 3)
    with pytest.raises(ValueError, match=r"^Invalid norm order for matrices\.$"):
        norm_fro(m)  # Numba compiles a string order and refuses it at run time


def test_cond_rank_power():
    assert cond(A) == pytest.approx(3.732050807568877, rel=1e-12)
    assert cond(A.astype(np.float32)) == pytest.approx(3.7320504188537598, rel=1e-6)
    assert cond_p(np.array([[1., -2.], [3., 4.]]), 1) == pytest.approx(4.2, rel=1e-12)
    assert cond_p(SINGULAR, None) == pytest.approx(4.804857307547117e+16, rel=1e-3)
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is singular to machine precision."):
        cond_p(SINGULAR, 1)
    assert rank(R) == 2 and rank(np.ones(3)) == 1 and rank(np.zeros(3)) == 0
    assert rank(np.ones((3, 3))) == 1
    assert rank_tol(np.array([[1., -2.], [3., 4.]]), 0.5) == 2
    np.testing.assert_allclose(mpow(A, 3), [[15., 21., 9.], [21., 45., 39.], [9., 39., 75.]])
    np.testing.assert_allclose(mpow(A, 5), np.linalg.matrix_power(A, 5), rtol=1e-12)
    np.testing.assert_allclose(mpow(A, -2), np.linalg.matrix_power(A, -2), rtol=1e-10)
    np.testing.assert_array_equal(mpow(A, 0), np.eye(3))
    assert mpow(A.astype(np.float32), 2).dtype == np.float32
    with pytest.raises(ValueError, match="input must be a square array"):
        mpow(np.ones((2, 3)), 2)


_SQUARE = r"^Last 2 dimensions of the array must be square\.$"
_EMPTY = r"^Arrays cannot be empty$"


@pytest.mark.parametrize("fn, args, message", [
    (eig, (np.ones((2, 3)),), _SQUARE),
    (eigh, (np.ones((2, 3)),), _SQUARE),
    (slogdet, (np.ones((2, 3)),), _SQUARE),
    (svd, (np.ones((0, 3)), True), _EMPTY),
    (qr, (np.ones((0, 3)),), _EMPTY),
    (lstsq, (np.ones((3, 2)), np.ones(0)), _EMPTY),
    (lstsq, (np.ones((3, 2)), np.ones(4)), r"^Incompatible array sizes, system is not dimensionally valid\.$"),
    (eig, (np.array([[np.nan, 1.], [1., 1.]]),), r"^Array must not contain infs or NaNs\.$"),
])
def test_runtime_errors_match_numba(fn, args, message):
    with pytest.raises(np.linalg.LinAlgError, match=message):
        fn(*args)


@pytest.mark.parametrize("fn, args, message", [
    (eig, (np.ones((2, 2), np.int64),), r"np.linalg.eig\(\) only supported on float and complex arrays\."),
    (eig, (np.ones(3),), r"np.linalg.eig\(\) only supported on 2-D arrays\."),
    (norm, (np.ones((2, 2, 2)),), r"np.linalg.norm\(\) only supported on 1 and 2-D arrays"),
    (lstsq, (np.ones((3, 2)), np.ones(3, np.float32)), r"np.linalg.lstsq\(\) only supports inputs that have homogeneous dtypes\."),
    (mpow, (A, 2.0), r"Exponent must be an integer\."),
])
def test_typing_errors_match_numba(fn, args, message):
    with pytest.raises(TypingError, match=message):
        fn(*args)


@njit
def trace(a):
    return np.trace(a)


@njit
def trace_k(a, k):
    return np.trace(a, offset=k)


def test_trace_sums_in_float64_with_offset():
    # Numba sums from the int 0: float32 / complex64 diagonals accumulate in float64 / complex128.
    x = np.array([[0.1, 5.], [7., 0.2]], np.float32)
    t = trace(x)
    assert t == float(np.float32(0.1)) + float(np.float32(0.2)) and t != float(np.float32(0.1) + np.float32(0.2))
    assert isinstance(trace(x.astype(np.complex64)), complex)
    m = np.arange(12.).reshape(3, 4)
    assert [trace_k(m, k) for k in (-3, -1, 0, 1, 3, 5)] == [np.trace(m, k) for k in (-3, -1, 0, 1, 3, 5)]
