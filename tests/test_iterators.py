"""enumerate and zip in kernels, device functions and @jit functions (issue 17): over ranges
(any step), arrays (first axis), uniform tuples and each other, nested; the loop runs for the
shortest iterable, as in Python. Expectations computed by Numba 0.68 / numba-cuda 0.30 on the same
code."""
import numpy as np

from cujit import cuda, njit


@cuda.jit
def enumerate_zip_kernel(x, y, out, count):
    n = 0
    for i, v in enumerate(x, 2):
        out[i - 2] = v + i
        n += 1
    for k, (a, b) in enumerate(zip(x, y)):
        out[k] += a * b
        n += 1
    for (k, a), b in zip(enumerate(x), range(100, 0, -30)):  # range of 4 items: stops there
        out[k] += b
        n += 1
    for a, b in zip(range(3), y[::-1]):
        out[a] += b
        n += 1
    count[0] = n


def test_enumerate_and_zip_in_a_kernel(target):
    x = np.array([10, 9, 8, 7, 6])
    y = np.array([1, 2, 3, 4, 5])
    out = np.zeros(5, np.int64)
    count = np.zeros(1, np.int64)
    enumerate_zip_kernel[1, 1](x, y, out, count)
    np.testing.assert_array_equal(out, [127, 104, 79, 50, 42])
    assert count[0] == 5 + 5 + 4 + 3


@cuda.jit(device=True)
def dot_rows(m, v):
    s = 0.0
    for row, w in zip(m, v):  # rows of a 2-d array
        for a, b in zip(row, v):
            s += a * b * w
    return s


@cuda.jit
def rows_kernel(m, v, out):
    out[0] = dot_rows(m, v)
    t = 0
    for i, e in enumerate((3, 4, 5)):
        t += i * e
    out[1] = t
    empty = 0
    for a, b in zip(range(0), v):
        empty += 1
    for a, b in zip(range(5, 0), v):
        empty += 1
    out[2] = empty


def test_zip_over_rows_and_tuples_in_a_device_function(target):
    m = np.arange(6.0).reshape(3, 2)
    v = np.array([1.0, 2.0])
    out = np.zeros(3)
    rows_kernel[1, 1](m, v, out)
    ref = sum(a * b * w for row, w in zip(m, v) for a, b in zip(row, v))
    np.testing.assert_array_equal(out, [ref, 14, 0])


@njit
def jit_iterate(a, b):
    s = 0.0
    n = 0
    for i, v in enumerate(a, 10):
        s += i * v
        n += 1
    for (i, x), y in zip(enumerate(a), b):
        s += i + x * y
        n += 1
    for x, y, z in zip(range(100, 0, -7), a, b[::-1]):
        s += x - y * z
        n += 1
    for r, k in zip(np.ones((3, 2)), range(5)):
        s += r[1] * k
        n += 1
    for i, t in enumerate((3, 4, 5)):
        s += i * t
    return s, n


def test_enumerate_and_zip_in_jit():
    assert jit_iterate(np.arange(5.0), np.arange(4.0) + 1) == (521.0, 16)


@njit
def tuple_of_arrays(a, b):
    s = 0.0
    for x in (a, b):
        s += x[0]
    for i, x in enumerate((a, b)):
        s += i * x[1]
    for x, y in zip((a, b), (b, a)):
        s += x[0] * y[1]
    return s


def test_tuples_of_arrays_iterate():
    # Numba: 1 + 10 + 1 * 20 + (1 * 20 + 10 * 2) = 71
    assert tuple_of_arrays(np.array([1.0, 2.0]), np.array([10.0, 20.0])) == 71.0
