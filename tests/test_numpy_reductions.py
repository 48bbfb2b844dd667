"""NumPy reductions in @jit code (issue 20): cumulative sums, order statistics, nan forms, ptp,
average, and np.sum/argmin/argmax with an axis. Every expected value, dtype and error below is
what Numba 0.68 gives for the same function."""
import numpy as np
import pytest

from cujit import njit

A2 = np.arange(12, dtype=np.int32).reshape(3, 4)
F2 = np.arange(12.0).reshape(3, 4) * 0.5
F1 = np.array([3.0, 1.0, 4.0, 1.5, 9.0, 2.0])
N1 = np.array([3.0, np.nan, 4.0, 1.5, np.nan, 2.0])


def same(got, want):
    """Equal values, and for arrays the same dtype and shape."""
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (got, want)
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        assert type(got) is type(want) and got == pytest.approx(want, rel=1e-12), (got, want)


@njit
def cums(a):
    return np.cumsum(a), np.cumprod(a), a.cumsum(), a.cumprod()


def test_cumsum_cumprod_flatten_and_widen():
    s, p, s2, p2 = cums(A2)
    same(s, np.array([0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66], dtype=np.int64))
    same(s2, s)
    same(p, np.zeros(12, dtype=np.int64))
    same(p2, p)
    u = cums(np.arange(1, 5, dtype=np.uint8))
    same(u[0], np.array([1, 3, 6, 10], dtype=np.uint64))
    same(u[1], np.array([1, 2, 6, 24], dtype=np.uint64))
    f = cums(np.arange(1, 5, dtype=np.float32))
    same(f[0], np.array([1, 3, 6, 10], dtype=np.float32))
    b = cums(np.array([[True, False], [True, True]]))
    same(b[0], np.array([1, 1, 2, 3], dtype=np.int64))


@njit
def cumsum_axis(a, k):
    return np.cumsum(a, axis=k), a.cumsum(k)


def test_cumsum_axis():
    r0, r0m = cumsum_axis(F2, 0)
    same(r0, np.array([[0, .5, 1, 1.5], [2, 3, 4, 5], [6, 7.5, 9, 10.5]]))
    same(r0m, r0)
    r1, _ = cumsum_axis(A2, 1)
    same(r1, np.array([[0, 1, 3, 6], [4, 9, 15, 22], [8, 17, 27, 38]], dtype=np.int64))
    r1n, _ = cumsum_axis(A2, -1)
    same(r1n, r1)
    strided = np.arange(24.0).reshape(2, 3, 4)[:, ::2, 1:]
    same(cumsum_axis(strided, 1)[0], np.cumsum(strided, axis=1))


@njit
def nancums(a):
    return np.nancumsum(a), np.nancumprod(a)


def test_nancumsum_nancumprod():
    s, p = nancums(N1)
    same(s, np.array([3., 3., 7., 8.5, 8.5, 10.5]))
    same(p, np.array([3., 3., 12., 18., 18., 36.]))


@njit
def order_stats(a):
    return np.median(a), np.percentile(a, 30.0), np.quantile(a, 0.3), np.percentile(a, 0)


def test_median_percentile_quantile():
    assert order_stats(F1) == (2.5, 1.75, 1.75, 1.0)
    assert order_stats(A2) == (5.5, 3.3, 3.3, 0.0)
    same(order_stats(F2)[0], 2.75)
    m = order_stats(np.array([1.0, np.nan, 2.0]))
    assert all(np.isnan(x) for x in m)
    assert np.isnan(median(np.zeros(0)))


@njit
def median(a):
    return np.median(a)


@njit
def percentiles(a, q):
    return np.percentile(a, q)


def test_percentile_of_an_array_of_qs():
    same(percentiles(F1, np.array([10.0, 50.0])), np.array([1.25, 2.5]))


@njit
def bad_percentile(a):
    return np.percentile(a, 120.0)


@njit
def bad_quantile(a):
    return np.quantile(a, -0.5)


def test_percentile_out_of_range_raises():
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        bad_percentile(F1)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        bad_quantile(F1)


@njit
def nan_stats(a):
    return (np.nanmean(a), np.nanstd(a), np.nanvar(a), np.nanmedian(a), np.nanpercentile(a, 40.0),
            np.nanquantile(a, 0.4), np.nanargmin(a), np.nanargmax(a))


def test_nan_statistics():
    got = nan_stats(N1)
    want = (2.625, 0.960143218483576, 0.921875, 2.5, 2.2, 2.2, 3, 2)
    for g, w in zip(got, want):
        same(g, w)


@njit
def ptp_average(a):
    return np.ptp(a), np.average(a)


def test_ptp_and_average():
    assert ptp_average(A2) == (11, 5.5)
    assert isinstance(ptp_average(A2)[0], int)
    same(ptp_average(F1)[0], 8.0)
    same(ptp_average(F1)[1], 3.4166666666666665)
    # Numba: ptp of unsigned integers is a float64
    same(ptp_average(np.array([3, 250, 7], dtype=np.uint8))[0], 247.0)


@njit
def weighted(a, w):
    return np.average(a, weights=w)


def test_weighted_average():
    same(weighted(F1, np.ones(6)), 3.4166666666666665)
    same(weighted(np.array([1.0, 2.0, 4.0]), np.array([3.0, 1.0, 0.0])), 1.25)


@njit
def sum_axis(a, k):
    return np.sum(a, axis=k), a.sum(axis=k), np.sum(a, k)


@njit
def cumsum_only_axis(a, k):
    return np.cumsum(a, axis=k)


def test_cumsum_axis_in_every_layout_bit_for_bit():
    # Walked in memory order along axes that are not the last (issue 20's speed); each element is
    # still 0 + a[0] + ... + a[j] in order (Numba 0.68's values: -0.0 sums to 0.0, int16 to int64).
    z = np.array([[-0.0, 1.0], [-0.0, -0.0]])
    assert cumsum_only_axis(z, 0).tolist() == [[0.0, 1.0], [0.0, 1.0]]
    assert np.signbit(cumsum_only_axis(z, 0)).sum() == 0
    assert cumsum_only_axis(z, 1).tolist() == [[0.0, 1.0], [0.0, 0.0]]
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((7, 5, 6)) * 1e3).astype(np.float32)
    for v in (x, np.asfortranarray(x), x[:, ::2, ::-2], x[1:, :, :1]):
        for k in (0, 1, 2, -2):
            r = cumsum_only_axis(v, k)
            assert r.dtype == np.float32 and np.array_equal(r, np.cumsum(v, axis=k)), (k, v.strides)
    i = rng.integers(-100, 100, (4, 5)).astype(np.int16)
    r = cumsum_only_axis(i, 0)
    assert r.dtype == np.int64 and r[-1].tolist() == [-51, -188, 71, 13, -147]
    assert cumsum_only_axis(np.zeros((0, 3)), 0).shape == (0, 3)
    assert cumsum_only_axis(np.zeros((3, 0, 2)), 0).shape == (3, 0, 2)


def test_sum_with_an_axis():
    s0, s0m, s0p = sum_axis(F2, 0)
    same(s0, np.array([6., 7.5, 9., 10.5]))
    same(s0m, s0)
    same(s0p, s0)
    s1 = sum_axis(A2, 1)[0]
    same(s1, np.array([6, 22, 38], dtype=np.int64))  # int32 sums in int64, as Numba
    same(sum_axis(A2, -1)[0], s1)
    x3 = np.arange(24.0).reshape(2, 3, 4)
    same(sum_axis(x3, 0)[0], x3.sum(axis=0))
    same(sum_axis(x3[:, ::2, :], 1)[0], x3[:, ::2, :].sum(axis=1))
    same(sum_axis(x3, 2)[0], x3.sum(axis=2))
    same(sum_axis(np.arange(4.0), 0)[0], 6.0)  # a 1-d array sums to a number
    same(sum_axis(np.zeros((0, 3)), 0)[0], np.zeros(3))


def sequential_sum(a, k, dtype=None):
    """0 + a[0] + a[1] + ... along axis k, each step rounded to the result's dtype: Numba 0.68's
    np.sum(a, axis=k) (checked bit for bit against it on float32 and float64 arrays of 3
    dimensions, C, Fortran and strided, every axis, and with dtype=), which NumPy's pairwise
    sum along a contiguous axis is not."""
    a = np.moveaxis(a, k, 0)
    dt = np.dtype(dtype or a.dtype)
    acc = np.zeros(a.shape[1:], dt)
    for j in range(a.shape[0]):
        acc = (acc + a[j].astype(dt)).astype(dt)
    return acc


@njit
def sum_axis_dtype(a, k):
    return np.sum(a, axis=k, dtype=np.float32)


def test_sum_with_an_axis_adds_in_numbas_order_bit_for_bit():
    # The loop walks the input in memory order (perf: issue 20) and must still add each result
    # element's terms in order, as Numba does: these sums lose the 1.0 where added after 1e8.
    a = np.array([[1e8, 3.0, 0.1], [1.0, 1e8, 0.2], [-1e8, -1e8, 0.3], [1.0, 5.0, 0.4]], dtype=np.float32)
    for v in (a, np.asfortranarray(a), a.T.copy().T):
        r = sum_axis(v, 0)[0]
        assert r.dtype == np.float32 and r.tolist() == [1.0, 5.0, 1.0]  # Numba's values
    assert sum_axis(a.T, 1)[0].tolist() == [1.0, 5.0, 1.0]
    b = a.astype(np.float64) * np.array([1, 1e9, 1])
    assert sum_axis(b, 0)[0].tolist() == [2.0, 8000000000.0, 1.0000000223517418]
    rng = np.random.default_rng(1)
    for dt in (np.float32, np.float64):
        x = (rng.standard_normal((37, 29, 41)) * 1e3).astype(dt)
        for v in (x, np.asfortranarray(x), x[:, ::2, ::-3], x[3:, 1:, :-1]):
            for k in (0, 1, 2, -1):
                for r in sum_axis(v, k):
                    assert r.dtype == dt and np.array_equal(r, sequential_sum(v, k)), (dt, k, v.strides)
    x = rng.standard_normal((37, 29)) * 1e3
    for k in (0, 1):  # dtype=: each element cast first, then added in float32 (Numba's)
        r = sum_axis_dtype(x, k)
        assert r.dtype == np.float32 and np.array_equal(r, sequential_sum(x, k, np.float32))
    i8 = rng.integers(-128, 127, (50, 7, 3)).astype(np.int8)
    for k in (0, 1, 2):
        r = sum_axis(i8, k)[0]
        assert r.dtype == np.int64 and np.array_equal(r, i8.astype(np.int64).sum(axis=k))
    m = rng.random((5, 6, 2)) > 0.5
    assert np.array_equal(sum_axis(m, 1)[0], m.sum(axis=1)) and sum_axis(m, 1)[0].dtype == np.int64
    same(sum_axis(np.zeros((3, 0)), 0)[0], np.zeros(0))
    same(sum_axis(np.zeros((3, 0, 2)), 2)[0], np.zeros((3, 0)))


def test_sum_axis_out_of_bounds_raises():
    with pytest.raises(ValueError, match="axis"):
        sum_axis(F2, 2)
    with pytest.raises(ValueError, match="axis"):
        sum_axis(np.arange(4.0), 1)


@njit
def sum_dtype(a):
    return np.sum(a, dtype=np.float32), a.sum(dtype=np.int8)


def test_sum_with_a_dtype():
    f, i = sum_dtype(A2)
    assert f == 66.0 and isinstance(f, float)
    assert i == 66 and isinstance(i, int)
    # int8 accumulation wraps as Numba's does
    assert sum_dtype(np.full(3, 100, dtype=np.int32))[1] == 44


@njit
def arg_axis(a, k):
    return np.argmin(a, axis=k), np.argmax(a, k), a.argmin(axis=k), a.argmax(axis=k)


def test_argmin_argmax_with_an_axis():
    lo, hi, lo2, hi2 = arg_axis(A2, 0)
    same(lo, np.zeros(4, dtype=np.int64))
    same(hi, np.array([2, 2, 2, 2]))
    same(lo2, lo)
    same(hi2, hi)
    x = np.array([[3.0, np.nan, 1.0], [2.0, 5.0, 0.5]])
    lo, hi, _, _ = arg_axis(x, 1)
    same(lo, np.array([1, 2]))  # the first NaN wins, as in NumPy
    same(hi, np.array([1, 1]))
    same(arg_axis(F1, 0)[1], 4)


def test_argmin_argmax_with_an_axis_in_every_layout():
    # Axes before the last are walked in memory order (issue 20's speed): still the first extreme
    # or the first NaN of each line (Numba's and NumPy's rule), ties and NaN placed to catch it.
    rng = np.random.default_rng(5)
    x = rng.integers(0, 4, (6, 5, 7)).astype(np.float64)
    x[2, 1, 3] = x[4, 0, 0] = x[0, 3, 6] = x[5, 4, 2] = np.nan
    i = rng.integers(-3, 3, (6, 5, 7)).astype(np.int16)
    for a in (x, i, x.astype(np.float32)):
        for v in (a, np.asfortranarray(a), a[::-1, ::2, 1:], a[:, :1, :]):
            for k in (0, 1, 2, -3):
                lo, hi, lo2, hi2 = arg_axis(v, k)
                assert lo.dtype == np.int64 and np.array_equal(lo, np.argmin(v, axis=k)), (k, v.strides)
                assert np.array_equal(hi, np.argmax(v, axis=k)) and np.array_equal(lo2, lo) and np.array_equal(hi2, hi)
    b = rng.random((4, 6)) > 0.5
    assert np.array_equal(arg_axis(b, 0)[1], np.argmax(b, axis=0))
    with pytest.raises(ValueError, match="argmin of an empty sequence"):
        arg_axis(np.zeros((0, 3)), 0)
    assert arg_axis(np.zeros((3, 0)), 0)[0].shape == (0,)
