"""More of np.random in @jit code (issue 20): the distributions, shuffle and permutation, each
as Numba 0.68 draws them from its np.random stream seeded inside compiled code (the values
below are Numba's for the same code; most also equal NumPy's legacy RandomState)."""
import random

import numpy as np
import pytest

from cujit import njit


@njit
def draws1():
    np.random.seed(42)
    return (np.random.exponential(2.0), np.random.standard_exponential(), np.random.laplace(1., 2.),
            np.random.logistic(1., 2.), np.random.gumbel(1., 2.), np.random.lognormal(0.5, 1.5))


def test_distributions_match_numba():
    want = (0.9385361799537182, 3.010121430917521, 2.2471970259710075, 1.7997571341442478, 4.548331848996323,
            2.505684468922748)
    assert draws1() == want
    rs = np.random.RandomState(42)  # NumPy's legacy stream agrees for these
    assert want == (rs.exponential(2.0), rs.standard_exponential(), rs.laplace(1., 2.), rs.logistic(1., 2.),
                    rs.gumbel(1., 2.), rs.lognormal(.5, 1.5))


@njit
def draws2():
    np.random.seed(1)
    return np.random.geometric(0.3), np.random.poisson(3.0), np.random.poisson(30.0), np.random.triangular(0., 1., 3.)


def test_integer_distributions_match_numba():
    assert draws2() == (2, 1, 27, 0.5263228897800222)


@njit
def draws3():
    np.random.seed(7)
    return (np.random.geometric(0.1), np.random.geometric(0.5, 3), np.random.poisson(12.5, 4),
            np.random.poisson(1.0, 3), np.random.triangular(1., 1., 1.), np.random.laplace(0.0, 1.0, 2))


@njit
def draws4():
    np.random.seed(8)
    return (np.random.gumbel(0.0, 1.0, 2), np.random.logistic(0.0, 1.0, 2), np.random.lognormal(0.0, 1.0, 2),
            np.random.standard_exponential(3), np.random.exponential(1.0, 2))


def test_sized_draws_match_numba():
    g1, g3, p4, p3, t, l2 = draws3()
    assert g1 == 1 and t == 1.0
    np.testing.assert_array_equal(g3, np.array([3, 1, 2]))
    np.testing.assert_array_equal(p4, np.array([12, 10, 14, 11]))
    np.testing.assert_array_equal(p3, np.array([0, 1, 2]))
    assert g3.dtype == np.int64 and p4.dtype == np.int64
    assert l2.tolist() == [0.22451678743177858, 2.30517846114104]
    gu, lo, ln, se, ex = draws4()
    assert gu.tolist() == [-0.726076531932202, -1.2409967169314144]
    assert lo.tolist() == [1.8938557873346304, 0.12357980196173504]
    assert ln.tolist() == [0.14270577168625787, 0.24998620760121237]
    assert se.tolist() == [0.7395569898636392, 0.6508385395869547, 0.8104823826090131]
    assert ex.tolist() == [0.7839169223648219, 1.4308549003098439]


@njit
def exp2d():
    np.random.seed(5)
    return np.random.exponential(1.5, (2, 2))


def test_shaped_draws():
    assert exp2d().tolist() == [[0.37652996598397886, 3.0688048182748116], [0.3473669480491426, 3.762771028656557]]


@njit
def perms(a):
    np.random.seed(3)
    np.random.shuffle(a)
    return a, np.random.permutation(5), np.random.permutation(np.arange(4.))


def test_shuffle_and_permutation_match_numba():
    a = np.arange(6)
    got, p5, p4 = perms(a)
    np.testing.assert_array_equal(a, [3, 5, 4, 1, 0, 2])  # in place
    np.testing.assert_array_equal(p5, [4, 2, 3, 1, 0])
    np.testing.assert_array_equal(p4, [0., 3., 1., 2.])
    assert p4.dtype == np.float64


def test_shuffle_2d_moves_rows():
    @njit
    def sh(a):
        np.random.seed(3)
        np.random.shuffle(a)
    a = np.arange(12).reshape(6, 2)
    sh(a)
    rs = np.random.RandomState(3)
    b = np.arange(12).reshape(6, 2)
    rs.shuffle(b)
    np.testing.assert_array_equal(a, b)


def test_bad_parameters_raise_as_numba():
    @njit
    def geo(p):
        return np.random.geometric(p)

    @njit
    def poi(lam):
        return np.random.poisson(lam)
    with pytest.raises(ValueError, match=r"geometric\(\): p outside of \(0, 1\]"):
        geo(0.0)
    with pytest.raises(ValueError, match=r"poisson\(\): lambda < 0"):
        poi(-1.0)


def test_empty_integer_ranges_raise():
    # These returned low (a silent wrong answer) before; Numba raises.
    @njit
    def npr(lo, hi):
        return np.random.randint(lo, hi)

    @njit
    def pyr(lo, hi):
        return random.randint(lo, hi)

    @njit
    def pyrr(lo, hi):
        return random.randrange(lo, hi)
    for f, args in [(npr, (5, 5)), (npr, (5, 4)), (pyr, (5, 4)), (pyrr, (5, 5))]:
        with pytest.raises(ValueError, match=r"empty range for randrange\(\)"):
            f(*args)
    with pytest.raises(ValueError, match=r"empty range for randrange\(\)"):
        njit(lambda: np.random.randint(0))()
