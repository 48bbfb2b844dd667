"""np.random's remaining distributions and choice() in @jit code (issue 20), each drawn as Numba
0.68 draws it from its np.random stream seeded inside compiled code. The values are Numba's for the
same code: gamma and what is built on it (beta, chisquare, f, standard_t, negative_binomial),
pareto and vonmises use CPython's random-module algorithms in Numba, so they differ from NumPy's
legacy RandomState; binomial, power, rayleigh, standard_cauchy, weibull, wald and choice equal
NumPy's for the same seed."""
import numpy as np
import pytest

from cujit import njit
from cujit.errors import TypingError


@njit
def scalars():
    np.random.seed(12345)
    return (np.random.gamma(2.5, 2.0), np.random.gamma(0.3), np.random.standard_gamma(1.0), np.random.beta(2.0, 3.0),
            np.random.chisquare(3.0), np.random.f(3.0, 5.0), np.random.standard_t(5.0), np.random.standard_cauchy(),
            np.random.pareto(2.0), np.random.weibull(1.5), np.random.power(2.0), np.random.rayleigh(2.0),
            np.random.wald(1.0, 2.0), np.random.vonmises(0.5, 2.0), np.random.vonmises(0.5, 1e-9),
            np.random.negative_binomial(5, 0.4), np.random.binomial(10, 0.3), np.random.binomial(1000, 0.4),
            np.random.binomial(20, 0.8), np.random.ranf(), np.random.sample())


def test_scalar_draws_match_numba():
    want = (2.3736484441500174, 0.21478856736525234, 3.338631672804025, 0.41973538352940015, 0.6664313037136058,
            0.6050595900212588, 0.6777801779389039, -2.0572965496775604, 0.9233937783198594, 2.9700094522750353,
            0.8227233506919382, 3.5378775450605775, 0.2862163291744363, 0.5296106039928042, 0.15504520280603118, 8, 2,
            407, 15, 0.17805300588353812, 0.531449884359634)
    got = scalars()
    assert got == want
    assert [type(x) for x in got[15:19]] == [int] * 4


@njit
def sized():
    np.random.seed(7)
    return (np.random.gamma(2.0, 1.0, 3), np.random.beta(0.5, 0.5, (2, 2)), np.random.binomial(100, 0.6, 4),
            np.random.chisquare(2.0, size=2), np.random.standard_cauchy(2),
            np.random.rayleigh(1.0, size=2), np.random.binomial(5000, 0.001, 3), np.random.binomial(2000, 0.5, 2))


def test_sized_draws_match_numba():
    g, b, bi, c, ca, ra, bsmall, bbig = sized()
    np.testing.assert_allclose(g, [0.47400775, 1.73357083, 2.00518191], rtol=1e-8)
    np.testing.assert_allclose(b, [[0.33180281, 0.03397695], [0.04615879, 0.91428077]], rtol=1e-7)
    assert bi.dtype == np.int64 and bi.tolist() == [57, 60, 54, 61]
    np.testing.assert_allclose(c, [1.20603875, 0.8707511], rtol=1e-8)
    np.testing.assert_allclose(ca, [-0.82369352, -5.36152746], rtol=1e-8)
    np.testing.assert_allclose(ra, [1.03219818, 2.17668258], rtol=1e-8)
    assert bsmall.tolist() == [3, 6, 4] and bbig.tolist() == [998, 1014]


@njit
def choices():
    np.random.seed(3)
    a = np.arange(10.) * 1.5
    return (np.random.choice(10), np.random.choice(a), np.random.choice(5, 4), np.random.choice(a, (2, 2)),
            np.random.choice(a, 5, replace=False), np.random.choice(6, size=6, replace=False))


def test_choice_matches_numba_and_numpy():
    c0, c1, c2, c3, c4, c5 = choices()
    assert c0 == 8 and c1 == 13.5
    assert c2.dtype == np.int64 and c2.tolist() == [3, 0, 0, 0]
    assert c3.tolist() == [[7.5, 4.5], [13.5, 13.5]]
    assert c4.tolist() == [4.5, 12., 3., 1.5, 13.5]
    assert c5.tolist() == [4, 0, 3, 5, 1, 2]
    rs = np.random.RandomState(3)  # NumPy's legacy stream agrees for these
    a = np.arange(10.) * 1.5
    assert (rs.choice(10), rs.choice(a)) == (c0, c1)
    assert rs.choice(5, 4).tolist() == c2.tolist()


def test_binomial_statistics():
    @njit
    def many(n, p, k):
        np.random.seed(0)
        return np.random.binomial(n, p, k)
    for n, p in [(10, 0.3), (200, 0.7), (5000, 0.02)]:
        x = many(n, p, 20000)
        assert abs(x.mean() - n * p) < 4 * np.sqrt(n * p * (1 - p) / 20000)
        assert x.min() >= 0 and x.max() <= n


@njit
def choice_too_many():
    return np.random.choice(3, 5, replace=False)


@njit
def gamma_neg():
    return np.random.gamma(-1.0)


@njit
def binomial_args(n, p):
    return np.random.binomial(n, p)


@njit
def choice_empty():
    return np.random.choice(0)


@njit
def power0():
    return np.random.power(0.0)


@njit
def wald0():
    return np.random.wald(0.0, 1.0)


@njit
def choice_p(a):
    return np.random.choice(a, p=np.ones(3) / 3)


def test_errors_match_numba():
    with pytest.raises(ValueError, match=r"^Cannot take a larger sample than population when 'replace=False'$"):
        choice_too_many()
    with pytest.raises(ValueError, match=r"^gammavariate: alpha and beta must be > 0\.0$"):
        gamma_neg()
    with pytest.raises(ValueError, match=r"^binomial\(\): n <= 0$"):
        binomial_args(-1, 0.5)
    with pytest.raises(ValueError, match=r"^binomial\(\): p outside of \[0, 1\]$"):
        binomial_args(3, 1.5)
    with pytest.raises(ValueError, match=r"^empty range for randrange\(\)$"):
        choice_empty()
    with pytest.raises(ValueError, match=r"^power\(\): a <= 0$"):
        power0()
    with pytest.raises(ValueError, match=r"^wald\(\): mean <= 0$"):
        wald0()
    with pytest.raises(TypingError, match="unexpected keyword argument 'p'"):  # Numba's choice has no p=
        choice_p(np.arange(3))
