"""CUDA ufuncs' .reduce(arr, stream=0): numba-cuda's pairwise tree over a 1-D array, one launch
per level (numba-cuda's vectorizers.CUDAUFuncDispatcher.reduce). Expectations are numba-cuda's:
the result is a NumPy scalar of the array's dtype, the order of the additions is its tree's, and
its refusals (AssertionError for a unary ufunc or a 2-D array, TypeError for an empty one)."""
import numpy as np
import pytest

from cujit import cuda, vectorize

SIGS = ["int32(int32, int32)", "float32(float32, float32)", "float64(float64, float64)"]


def _add():
    @vectorize(SIGS, target="cuda")
    def vector_add(a, b):
        return a + b
    return vector_add


@pytest.mark.parametrize("n", [1, 2, 3, 8, 100, 2 ** 10 + 1])
def test_reduce_host_array(target, n):
    x = np.arange(n, dtype=np.int32)
    got = _add().reduce(x)
    assert got == n * (n - 1) // 2
    assert got.dtype == np.int32  # the input's dtype, not np.add.reduce's int64


@pytest.mark.parametrize("n", [2, 7, 100, 2 ** 10 + 1])
def test_reduce_device_array_on_a_stream_leaves_it_unchanged(target, n):
    x = np.arange(n, dtype=np.int32)
    stream = cuda.stream()
    dx = cuda.to_device(x, stream)
    got = _add().reduce(dx, stream=stream)
    assert got == n * (n - 1) // 2 and got.dtype == np.int32
    # numba-cuda writes its partial sums over a device input; cujit uses a scratch array
    np.testing.assert_array_equal(dx.copy_to_host(), x)


def test_reduce_follows_numba_cudas_tree_order(target):
    add = _add()
    # even: halves added elementwise, [1e8 + -1e8, 1 + 1] -> 0 + 2; a left fold gives 1
    assert add.reduce(np.array([1e8, 1, -1e8, 1], dtype=np.float32)) == np.float32(2.0)
    # odd: the first n - 1 fold first, then the last element: (1 + 1e8) + -1e8 == 0 in float32
    got = add.reduce(np.array([1, 1e8, -1e8], dtype=np.float32))
    assert got == np.float32(0.0) and got.dtype == np.float32
    assert add.reduce(np.array([1e8, 1, -1e8, 1, 3], dtype=np.float32)) == np.float32(5.0)
    x = np.random.RandomState(0).rand(1001)
    # float64 of 1001 elements: folded as numba-cuda does, written out here in Python
    def tree(m):
        if len(m) % 2:
            return tree(m[:-1]) + m[-1]
        half = len(m) // 2
        pairs = [m[i] + m[half + i] for i in range(half)]
        return pairs[0] if half == 1 else tree(pairs)
    assert add.reduce(x) == tree(list(x))


def test_reduce_of_one_element_and_of_a_strided_view(target):
    add = _add()
    one = add.reduce(np.array([7.5]))
    assert one == 7.5 and one.dtype == np.float64
    assert add.reduce(cuda.to_device(np.array([4], dtype=np.int32))) == 4
    x = np.arange(30, dtype=np.int32)
    assert add.reduce(x[::3]) == x[::3].sum()
    assert add.reduce(cuda.to_device(x)[1::2]) == x[1::2].sum()


def test_reduce_with_another_binary_operation(target):
    @vectorize(["float64(float64, float64)"], target="cuda")
    def biggest(a, b):
        return max(a, b)

    x = np.random.RandomState(1).rand(333)
    assert biggest.reduce(x) == x.max()


def test_reduce_refusals_are_numba_cudas(target):
    add = _add()
    with pytest.raises(AssertionError, match="^must use 1d array$"):
        add.reduce(np.zeros((2, 2), dtype=np.int32))
    with pytest.raises(AssertionError, match="^must use 1d array$"):
        add.reduce(np.zeros((), dtype=np.int32))
    with pytest.raises(TypeError, match=r"^Reduction on an empty array\.$"):
        add.reduce(np.zeros(0, dtype=np.int32))
    with pytest.raises(TypeError, match="No matching version"):
        add.reduce(np.arange(3, dtype=np.int16))

    @vectorize(["int32(int32)"], target="cuda")
    def neg(a):
        return -a

    with pytest.raises(AssertionError, match="^must be a binary ufunc$"):
        neg.reduce(np.arange(3, dtype=np.int32))


def test_reduce_refuses_a_signature_whose_result_is_another_dtype(target):
    # numba-cuda writes each level into the input's dtype, so its kernel refuses the array;
    # cujit says why
    @vectorize(["float64(int32, int32)"], target="cuda")
    def mean2(a, b):
        return (a + b) / 2

    with pytest.raises(TypeError, match="out= has dtype int32 but this signature returns float64"):
        mean2.reduce(np.arange(4, dtype=np.int32))
