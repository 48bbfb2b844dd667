"""np.random.hypergeometric, logseries, zipf, noncentral_chisquare, multinomial and dirichlet in
@jit code (issue 20), seeded inside compiled code. The values are Numba 0.68's for the same code
(logseries, zipf and small hypergeometric samples also equal NumPy's legacy RandomState; Numba's
dirichlet and noncentral_chisquare draw through its CPython-style gamma, so they differ from
NumPy's). Where Numba returns a number for parameters NumPy refuses, cujit raises NumPy's error."""
import math

import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


@njit
def scalars(s):
    np.random.seed(s)
    return (np.random.hypergeometric(10, 5, 7), np.random.hypergeometric(3.0, 20, 10),
            np.random.hypergeometric(100, 200, 50), np.random.logseries(0.5), np.random.logseries(0.9),
            np.random.zipf(2.0), np.random.noncentral_chisquare(3.0, 2.0), np.random.noncentral_chisquare(0.5, 1.0))


@njit
def keywords(s):
    np.random.seed(s)
    return (np.random.hypergeometric(ngood=7.5, nbad=4, nsample=6), np.random.logseries(p=0.3),
            np.random.zipf(a=3.0), np.random.noncentral_chisquare(df=0.5, nonc=3.0))


def test_scalar_draws_match_numba():
    assert scalars(42) == (5, 1, 13, 1, 24, 4, 3.9964336913758087, 0.31780782797812984)
    assert keywords(3) == (3, 1, 1, 0.12385208664581959)
    rs = np.random.RandomState(42)  # NumPy's legacy stream agrees on the first two and logseries
    assert (rs.hypergeometric(10, 5, 7), rs.hypergeometric(3, 20, 10)) == (5, 1)


@njit
def sized(s):
    np.random.seed(s)
    return (np.random.hypergeometric(10, 5, 7, size=5), np.random.logseries(p=0.99, size=4),
            np.random.zipf(1.5, size=(2, 2)), np.random.noncentral_chisquare(3, 2, size=3))


def test_sized_draws_match_numba():
    h, lg, z, n = sized(42)
    same(h, np.array([5, 3, 6, 6, 5]))
    same(lg, np.array([1, 54, 1, 1]))
    same(z, np.array([[121, 8], [4, 1]]))
    np.testing.assert_allclose(n, [7.61852255, 2.6993807, 2.12254118], rtol=1e-8)


@njit
def multinomials(s):
    np.random.seed(s)
    return (np.random.multinomial(20, np.array([0.2, 0.3, 0.5])), np.random.multinomial(20, [0.2, 0.3, 0.5], size=2),
            np.random.multinomial(n=5, pvals=np.array([0.5, 0.25, 0.25], dtype=np.float32), size=3))


@njit
def multinomial_tuple(s):
    np.random.seed(s)
    return np.random.multinomial(20, (0.2, 0.3, 0.5), size=(2, 2))


def test_multinomial_matches_numba():
    a, b, c = multinomials(42)
    same(a, np.array([3, 10, 7]))
    same(b, np.array([[5, 6, 9], [2, 5, 13]]))
    np.random.seed(42)
    assert list(np.random.multinomial(20, [0.2, 0.3, 0.5])) == [3, 10, 7]  # NumPy's too
    same(multinomial_tuple(42), np.array([[[3, 10, 7], [5, 6, 9]], [[2, 5, 13], [1, 9, 10]]]))
    same(c, np.array([[1, 3, 1], [3, 1, 1], [0, 5, 0]]))


@njit
def dirichlets(s):
    np.random.seed(s)
    return np.random.dirichlet(np.array([1.0, 2.0, 3.0])), np.random.dirichlet((1.0, 2.0, 0.5), size=2)


@njit
def dirichlet_kw(s):
    np.random.seed(s)
    return np.random.dirichlet(alpha=np.array([2, 3]), size=(1, 2))


def test_dirichlet_matches_numba():
    a, b = dirichlets(42)
    np.testing.assert_allclose(a, [0.1066852133473896, 0.5727680293886438, 0.32054675726396653], rtol=1e-12)
    np.testing.assert_allclose(b, [[4.4240341950605538e-01, 5.5746593448821979e-01, 1.3064600572500483e-04],
                                   [6.4448447256815700e-01, 3.3850547040194751e-01, 1.7010057029895567e-02]], rtol=1e-12)
    d = dirichlet_kw(5)
    assert d.shape == (1, 2, 2) and d.dtype == np.float64
    np.testing.assert_allclose(d, [[[0.3709616662458464, 0.6290383337541534], [0.27641064571756285, 0.7235893542824371]]], rtol=1e-12)


@njit
def moments(s):
    np.random.seed(s)
    h = np.random.hypergeometric(30, 20, 12, 20000)
    n = np.random.noncentral_chisquare(4.0, 3.0, 20000)
    d = np.random.dirichlet(np.array([1.0, 2.0, 5.0]), 20000)
    m = np.random.multinomial(10, np.array([0.1, 0.6, 0.3]), 20000)
    lg = np.random.logseries(0.6, 20000)
    z = np.random.zipf(3.0, 20000)
    return h.mean(), n.mean(), d[:, 2].mean(), m[:, 1].mean(), lg.mean(), (z == 1).mean()


def test_moments():
    got = moments(11)
    assert got == (7.19835, 6.969134871578426, 0.624431490343059, 5.98985, 1.6378, 0.83215)  # Numba's
    want = (12 * 30 / 50, 4.0 + 3.0, 5 / 8, 6.0, -0.6 / (0.4 * math.log(0.4)), 1 / 1.2020569031595942)
    for g, w in zip(got, want):
        assert abs(g - w) < 0.02 * w, (got, want)


def test_bad_parameters():
    @njit
    def call(k, x):
        if k == 0:
            return float(np.random.logseries(x))
        if k == 1:
            return float(np.random.zipf(x))
        if k == 2:
            return np.random.noncentral_chisquare(x, 1.0)
        if k == 3:
            return np.random.noncentral_chisquare(1.0, x)
        if k == 4:
            return np.random.dirichlet(np.array([1.0, x]))[0]
        if k == 5:
            return float(np.random.hypergeometric(x, 5, 3))
        if k == 6:
            return float(np.random.hypergeometric(1, 5, x))
        return float(np.random.logseries(x))

    for k, x, msg in [(0, 1.5, r"logseries\(\): p outside of \(0, 1\]"), (1, 0.5, r"zipf\(\): a <= 1"),
                      (2, -1.0, "df <= 0"), (3, -1.0, "nonc < 0"), (4, 0.0, "dirichlet: alpha must be > 0.0"),
                      (5, -1.0, "ngood < 0"), (6, 7.0, "ngood \\+ nbad < nsample")]:
        with pytest.raises(ValueError, match=msg):
            call(k, x)
    with pytest.raises(ZeroDivisionError, match="division by zero"):  # Numba's, for p == 1
        call(0, 1.0)
    assert call(6, 0.0) == 0.0  # no samples, none good (Numba's; NumPy refuses)


def test_typing_errors():
    @njit
    def float_n():
        return np.random.multinomial(2.5, np.array([0.5, 0.5]))

    @njit
    def bad_pvals():
        return np.random.multinomial(2, 0.5)

    with pytest.raises(TypingError, match=r"np.random.multinomial\(\): n should be an integer, got float64"):
        float_n()
    with pytest.raises(TypingError, match="pvals should be a 1-d array or a sequence of real numbers"):
        bad_pvals()
