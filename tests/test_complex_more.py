"""Complex leftovers of issue 18: print() of complex numbers in @jit code (Python's repr, as
Numba prints them; numba-cuda's GPU prints none: tests/errors/print_complex_in_kernel.py), and
a.real / a.imag of complex arrays (writable views, as in NumPy and Numba) in kernels and @jit.
Expected output and values were taken from Numba 0.68 @jit and numba-cuda 0.30's simulator."""
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
