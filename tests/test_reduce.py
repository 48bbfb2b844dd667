"""@cuda.reduce on both targets: sums and other binary functions (a def and a lambda), sizes
around the block size and the multi-block path, `init`, `size`, `res=` (a device output),
empty input, host and device input, and the errors Numba raises."""
import numpy as np
import pytest

from cujit import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


max_reduce = cuda.reduce(lambda a, b: max(a, b))


@cuda.jit(device=True)
def smaller(a, b):
    return a if a < b else b


min_reduce = cuda.reduce(smaller)


@pytest.mark.parametrize("n", [1, 31, 256, 257, 1000, 100_003, 1_000_000])
def test_sum_sizes(target, n):
    a = np.arange(n, dtype=np.int64) % 1000 - 300
    assert sum_reduce(a) == a.sum()
    f = (np.arange(n) % 7).astype(np.float32)  # small integers: every order of additions is exact
    r = sum_reduce(f)
    assert isinstance(r, np.float32) and r == f.sum(dtype=np.float64)


def test_other_functions_and_dtypes(target):
    rng = np.random.default_rng(5)
    x = rng.integers(-10**6, 10**6, 300_001).astype(np.int32)
    assert max_reduce(x) == x.max()
    assert min_reduce(x) == x.min()
    y = rng.normal(size=70_000)
    assert max_reduce(y) == y.max()
    np.testing.assert_allclose(sum_reduce(y), y.sum(), rtol=1e-12)


def test_init_size_res_and_device_input(target):
    a = np.arange(1, 1001, dtype=np.float64)
    assert sum_reduce(a, init=10) == a.sum() + 10
    assert sum_reduce(a, size=10) == 55.0
    assert max_reduce(a, init=5000) == 5000.0
    d = cuda.to_device(a)
    res = cuda.device_array(3, dtype=np.float64)
    assert sum_reduce(d, res=res) is None
    assert res.copy_to_host()[0] == a.sum()
    assert sum_reduce(d, stream=0) == a.sum()


def test_empty_input_returns_init(target):
    r = sum_reduce(np.zeros(0, dtype=np.float32), init=3)
    assert r == 3 and isinstance(r, np.float32)
    assert sum_reduce(np.arange(5.0), size=0, init=1.5) == 1.5


def test_only_1d_arrays(target):
    with pytest.raises(TypeError, match="only 1-d arrays"):
        sum_reduce(np.zeros((4, 4)))


def test_size_must_be_an_integer(target):
    # int() took size=2.5 as 2 in silence; numba-cuda refuses it (TypeError).
    r = cuda.reduce(lambda a, b: a + b)
    with pytest.raises(TypeError):
        r(np.arange(5.0), size=2.5)
    assert r(np.arange(5.0), size=np.int32(2)) == 1.0
