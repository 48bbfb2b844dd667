"""Random numbers in @jit code (issue 5): `random` and `np.random` are two MT19937 generators per
thread, seeded as NumPy's legacy RandomState, so a seeded np.random sequence equals NumPy's. The
`random` module's values are Numba's (numba 0.62 on this code gives exactly these numbers)."""
import random

import numpy as np
import pytest

from cujit import njit


@njit
def py_draws(seed):
    random.seed(seed)
    return (random.random(), random.random(), random.uniform(1.0, 2.0), random.randint(1, 100),
            random.gauss(0.0, 1.0))


def test_python_random_matches_numba():
    # Recorded from numba 0.62: random.seed seeds like NumPy (not CPython), then draws as Numba.
    assert py_draws(42) == (0.3745401188473625, 0.9507143064099162, 1.731993941811405, 77,
                            -1.1978064265539556)


@njit
def np_draws(seed):
    np.random.seed(seed)
    return (np.random.random(), np.random.rand(), np.random.randn(), np.random.normal(1.0, 2.0),
            np.random.uniform(1.0, 3.0), np.random.randint(0, 10), np.random.randint(0, 1000000),
            np.random.standard_normal(), np.random.random_sample(), np.random.randint(5),
            np.random.randint(-3, 2 ** 40))


@pytest.mark.parametrize("seed", [0, 1, 42, 12345, 2 ** 32 - 1])
def test_numpy_random_matches_numpy(seed):
    rs = np.random.RandomState(seed)
    expected = (rs.random_sample(), rs.rand(), rs.randn(), rs.normal(1.0, 2.0), rs.uniform(1.0, 3.0),
                rs.randint(0, 10), rs.randint(0, 1000000), rs.standard_normal(), rs.random_sample(),
                rs.randint(5), rs.randint(-3, 2 ** 40))
    assert np_draws(seed) == expected


@njit
def mixed(seed, n):
    # A long run (many MT19937 refills) of every integer and normal path; the checksum and the
    # sum are Numba 0.62's for the same code.
    random.seed(seed)
    np.random.seed(seed)
    acc = 0
    for i in range(n):
        acc = acc * 31 + random.randint(-5, 5) + random.randrange(1 << 40) + random.randrange(3, 17) \
            + np.random.randint(-3, 2 ** 40) + np.random.randint(7)
        acc = acc % 1000000007
    g = 0.0
    for i in range(n):
        g += random.gauss(1.0, 2.0) + random.normalvariate(0.0, 1.0) + np.random.normal(0.0, 3.0) \
            + np.random.uniform(0.0, 5.0)
    return acc, g


@pytest.mark.parametrize("seed,acc,g", [(0, 701762031, 3301.4774265135115),
                                        (12345, 830409271, 3510.8923502230814),
                                        (2 ** 32 - 1, 938610088, 3337.3110311865244)])
def test_long_sequences_match_numba(seed, acc, g):
    assert mixed(seed, 1000) == (acc, pytest.approx(g, rel=1e-12))


@njit
def seed_np(s):
    np.random.seed(s)


@njit
def draw_np():
    return np.random.random()


def test_state_is_shared_between_functions():
    # Seeding in one compiled function and drawing in another (a separate library) continue one
    # sequence, as in Numba; NumPy's own global state is untouched.
    np.random.seed(7)
    before = np.random.random()
    seed_np(3)
    assert draw_np() == np.random.RandomState(3).random_sample()
    np.random.seed(7)
    assert np.random.random() == before


@njit
def keywords(seed):
    np.random.seed(seed)
    return np.random.normal(scale=2.0), np.random.uniform(high=5.0), np.random.normal(loc=1.0)


def test_keyword_arguments():
    rs = np.random.RandomState(5)
    assert keywords(5) == (rs.normal(0.0, 2.0), rs.uniform(0.0, 5.0), rs.normal(1.0, 1.0))


@njit
def monte_carlo_pi(nsamples):
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x ** 2 + y ** 2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples


def test_monte_carlo_pi_course_exercise():
    # The course compares with py_func to 2 decimals (different generators, same estimate).
    np.testing.assert_almost_equal(monte_carlo_pi(1000000), monte_carlo_pi.py_func(1000000), decimal=2)


def test_unseeded_generators_differ_between_calls():
    a = [draw_np() for _ in range(4)]
    assert len(set(a)) == 4 and all(0.0 <= x < 1.0 for x in a)
