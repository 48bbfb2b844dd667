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
