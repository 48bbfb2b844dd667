"""Complex leftovers of issue 18: print() of complex numbers in @jit code (Python's repr, as
Numba prints them; numba-cuda's GPU prints none: tests/errors/print_complex_in_kernel.py), and
a.real / a.imag of complex arrays (writable views, as in NumPy and Numba) in kernels and @jit.
Expected output and values were taken from Numba 0.68 @jit and numba-cuda 0.30's simulator."""
import cmath
import math

import numpy as np
import pytest

from cujit import cuda, njit


@njit
def _show(z, w):
    print(z, w, (z, 1.5), complex(-0.0, 0.0), complex(0.0, -0.0))
    print(complex(math.nan, -math.inf), complex(1e16, 1e-5), complex(100.0, -2.5), 1j)


def test_print_complex_in_jit(capfd):
    _show(1 + 2j, np.complex64(0.1 - 3j))
    _show(complex(0.0, 7.0), np.complex64(complex(-0.0, -0.0)))
    out = capfd.readouterr().out
    # Numba's output line for line: a complex64 prints as the complex128 it converts to.
    assert out == ("(1+2j) (0.10000000149011612-3j) ((1+2j), 1.5) (-0+0j) -0j\n"
                   "(nan-infj) (1e+16+1e-05j) (100-2.5j) 1j\n"
                   "7j (-0-0j) (7j, 1.5) (-0+0j) -0j\n"
                   "(nan-infj) (1e+16+1e-05j) (100-2.5j) 1j\n")


@cuda.jit
def _parts_kernel(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a.real[i] + 10 * a.imag[i]
        a.imag[i] = 1.5
        cuda.atomic.add(a.real, i, 1)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_real_imag_views_in_kernels(target, dtype):
    a = (np.arange(5) + 1j * np.arange(5)[::-1]).astype(dtype)
    out = np.zeros(5, a.real.dtype)
    _parts_kernel[1, 8](a, out)
    np.testing.assert_array_equal(out, np.arange(5) + 10 * np.arange(5)[::-1])
    np.testing.assert_array_equal(a, (np.arange(5) + 1 + 1.5j).astype(dtype))


def test_real_imag_views_in_jit():
    @njit
    def f(a, b):
        r = a.real
        a.imag[0] = 7.0
        r[1] = 5.0
        im = a[::2].imag  # a view of a strided view
        im[1] = -1.0
        return r.sum(), b.real.sum(), a.real.shape[0] + a.imag.ndim

    a = np.arange(3) + 1j * np.arange(3)
    assert f(a, np.arange(3.0)) == (7.0, 3.0, 4)
    np.testing.assert_array_equal(a, np.array([7j, 5 + 1j, 2 - 1j]))
    g = np.arange(6, dtype=np.complex64).reshape(2, 3)
    h = njit(lambda m: m.imag)(g)
    assert h.dtype == np.float32 and h.shape == (2, 3) and not h.any()


def test_np_divide_of_complex_is_numpys():
    # NumPy's loop (as Numba's np.divide): a zero divisor gives inf/nan per part, no exception;
    # the `/` of two complex scalars stays CPython's (ZeroDivisionError in @jit code).
    f = njit(lambda a, b: np.divide(a, b))
    a = np.array([1 + 1j, 0j, 1 + 0j, 3 - 4j, complex(math.inf, 1)])
    b = np.array([0j, 0j, 0j, 1 + 2j, 2 + 0j])
    with np.errstate(all="ignore"):
        want = a / b
    got = f(a, b)
    assert [repr(complex(z)) for z in got] == [repr(complex(z)) for z in want]  # nan-aware, bit for bit
    assert [repr(complex(z)) for z in got[:3]] == ["(inf+infj)", "(nan+nanj)", "(inf+nanj)"]


def test_cmath_log_with_base_one_raises_in_jit():
    f = njit(lambda z, b: cmath.log(z, b))
    assert f(8 + 0j, 2 + 0j) == pytest.approx(3 + 0j)
    with pytest.raises(ZeroDivisionError, match="complex division by zero"):
        f(2 + 0j, 1 + 0j)  # log(1) is 0, as in Numba


def test_complex_of_two_float32_is_complex64_as_numba():
    # Numba 0.68: complex(float32, float32) is complex64 (its products round to float32);
    # any other pair is complex128. Values checked on Numba and numba-cuda's GPU.
    from cujit import njit

    @njit
    def square(a, b):
        z = complex(a, b)
        return z * z, abs(z)

    sq, mag = square(np.float32(1.1), np.float32(-2.5))
    assert sq == complex(np.complex64(complex(np.float32(1.1), np.float32(-2.5))) ** 2)
    assert sq == (-5.039999961853027 - 5.5j) and mag == 2.731300115585327
    sq, mag = square(np.float32(1.1), -2.5)
    assert sq == (-5.039999947547912 - 5.5000001192092896j) and mag == 2.7313000663515696


def test_kernel_complex_of_float32_is_complex64(target):
    from cujit import cuda

    @cuda.jit
    def k(a, out):
        z = complex(a[0], a[1])
        out[0] = z * z

    out = cuda.to_device(np.zeros(1, np.complex128))
    k[1, 1](cuda.to_device(np.array([1.1, -2.5], np.float32)), out)
    assert out.copy_to_host()[0] == (-5.039999961853027 - 5.5j)
