"""complex64 / complex128 (issue 18): literals, complex(), .real/.imag/.conjugate(), abs,
arithmetic, **, == and !=, NumPy's promotion, cmath, np.real/imag/conj/sqrt/exp, complex scalars
and arrays as arguments and results of kernels, device functions, CUDA and CPU ufuncs and @jit,
complex device arrays. Expected values and types were taken from Numba 0.68 (CPU @jit) and are
pinned here as literals."""
import cmath
import math

import numpy as np
import pytest

import cujit
from cujit import cuda, jit, njit, vectorize
from cujit.errors import TypingError


# ---- CPU @jit, pinned against Numba ---------------------------------------------------------------

def test_literal_and_arithmetic():
    assert njit(lambda: 2j * 3)() == 6j
    assert njit(lambda a, b: a + b)(np.complex64(1 + 1j), 3) == 4 + 1j
    assert njit(lambda a, b: a - b)(1 + 2j, 0.5) == 0.5 + 2j
    assert njit(lambda a, b: a * b)(1 + 2j, 3 - 1j) == (1 + 2j) * (3 - 1j)
    assert njit(lambda a, b: a / b)(1 + 2j, 3 - 4j) == (1 + 2j) / (3 - 4j)
    assert njit(lambda a: -a)(3j) == -3j
    r = njit(lambda a: -a)(3j)
    assert math.copysign(1.0, r.real) == -1.0  # Numba: (-0-3j)


def test_result_types_follow_numpy_promotion():
    # complex64 with int16 or float32 stays complex64 (1/3 rounded to float32); with int64 or
    # float64 it is complex128.
    third32 = float(np.float32(1) / np.float32(3))
    div = njit(lambda a, b: a / b)
    assert div(np.complex64(1), np.int16(3)) == third32
    assert div(np.complex64(1), np.float32(3)) == third32
    assert div(np.complex64(1), 3) == 1 / 3
    assert div(np.complex64(1), 3.0) == 1 / 3
    assert isinstance(div(np.complex64(1), 3), complex)


def test_division_by_zero_raises_on_the_cpu():
    with pytest.raises(ZeroDivisionError, match="complex division by zero"):
        njit(lambda a, b: a / b)(1 + 1j, 0j)


def test_power():
    # Numba: complex ** int goes through cpow in double; ** 2 is z * z.
    assert njit(lambda a, b: a ** b)(np.complex64(1 + 1j), 3) == (-2.0000000000000004 + 2.0000000000000004j)
    assert njit(lambda a, b: a ** b)(np.complex64(1 + 1j), np.float32(2)) == 2j
    assert njit(lambda a: a ** 0.5)(-1 + 0j) == (6.123233995736766e-17 + 1j)
    r = njit(lambda a: a ** 2)(1e200 + 1e200j)
    assert math.isnan(r.real) and r.imag == math.inf  # Numba: (nan+infj)
    r = njit(lambda a: a ** (1 + 1j))(0j)
    assert math.isnan(r.real) and math.isnan(r.imag)  # Numba: (nan+nanj), no exception


def test_parts_abs_conjugate():
    assert njit(lambda a: abs(a))(np.complex64(3 + 4j)) == 5.0
    assert njit(lambda a: a.real)(np.complex64(3 + 4j)) == 3.0
    assert njit(lambda a: a.imag)(np.complex64(3 + 4j)) == 4.0
    assert njit(lambda a: a.conjugate())(np.complex64(3 + 4j)) == 3 - 4j
    assert njit(lambda a: a.imag)(3) == 0
    assert njit(lambda a: complex(a))(3) == 3 + 0j
    assert njit(lambda a, b: complex(a, b))(3, 4.5) == 3 + 4.5j
    assert njit(lambda a: bool(a))(3j) is True
    assert njit(lambda a: bool(a))(0j) is False
    assert njit(lambda a: (a, a == 1j, a != 1j))(1j) == (1j, True, False)
    assert njit(lambda a, b: a == b)(4 + 0j, 4.0) is True


def test_cmath():
    assert njit(lambda a: cmath.sqrt(a))(-4 + 0j) == 2j
    assert njit(lambda a: cmath.sqrt(a))(complex(-4, -0.0)) == -2j
    assert njit(lambda a: cmath.phase(a))(-4 + 0j) == 3.141592653589793
    assert njit(lambda a: cmath.polar(a))(-4 + 0j) == (4.0, 3.141592653589793)
    assert njit(lambda a: cmath.rect(a, 1.0))(2.0) == (1.0806046117362795 + 1.682941969615793j)
    assert njit(lambda a: cmath.exp(a))(complex(math.inf, 0.5)) == complex(math.inf, math.inf)
    assert njit(lambda a: cmath.log(a))(0j) == complex(-math.inf, 0)
    assert njit(lambda a: cmath.isnan(a))(1j) is False
    z = 1 + 2j
    for got, want in [(njit(lambda a: cmath.tanh(a))(z), 1.16673625724092 - 0.24345820118572534j),
                      (njit(lambda a: cmath.atanh(a))(z), 0.17328679513998632 + 1.1780972450961724j),
                      (njit(lambda a: cmath.acos(a))(z), 1.1437177404024204 - 1.5285709194809982j),
                      (njit(lambda a: cmath.asinh(a))(z), 1.4693517443681852 + 1.063440023577752j)]:
        assert abs(got - want) < 1e-15, (got, want)
    z = 0.3 - 0.7j
    for got, want in [(njit(lambda a: cmath.sin(a))(z), cmath.sin(z)), (njit(lambda a: cmath.cos(a))(z), cmath.cos(z)),
                      (njit(lambda a: cmath.tan(a))(z), cmath.tan(z)), (njit(lambda a: cmath.asin(a))(z), cmath.asin(z)),
                      (njit(lambda a: cmath.atan(a))(z), cmath.atan(z)), (njit(lambda a: cmath.sinh(a))(z), cmath.sinh(z)),
                      (njit(lambda a: cmath.cosh(a))(z), cmath.cosh(z)), (njit(lambda a: cmath.acosh(a))(z), cmath.acosh(z)),
                      (njit(lambda a: cmath.log10(a))(z), cmath.log10(z)), (njit(lambda a: cmath.log(a, 2))(z), cmath.log(z, 2))]:
        assert abs(got - want) < 1e-14, (got, want)


def test_cmath_types():
    # cmath.sqrt of a float32 is complex64, of an int complex128; cmath.phase of complex64 float32.
    assert njit(lambda a: cmath.sqrt(a))(np.float32(0.1)).real == float(np.sqrt(np.float32(0.1)))
    assert njit(lambda a: cmath.sqrt(a))(2) == math.sqrt(2)
    assert njit(lambda a: cmath.phase(a))(np.complex64(1 + 1j)) == float(np.float32(math.pi / 4))


def test_numpy_functions():
    assert njit(lambda a: np.abs(a))(3 + 4j) == 5.0
    assert njit(lambda a: np.real(a))(1 + 2j) == 1.0
    assert njit(lambda a: np.imag(a))(1 + 2j) == 2.0
    assert njit(lambda a: np.conj(a))(1 + 1j) == 1 - 1j
    assert njit(lambda a: np.sqrt(a))(np.complex64(-4)) == 2j
    assert njit(lambda a: np.exp(a))(1j) == (0.5403023058681398 + 0.8414709848078965j)


def test_complex_arrays_and_globals_on_the_cpu():
    @njit
    def total(a):
        s = 0j
        for i in range(a.shape[0]):
            s += a[i] * 1j
        return s

    a = np.array([1 + 2j, 3 - 1j], dtype=np.complex128)
    assert total(a) == (1 + 2j) * 1j + (3 - 1j) * 1j
    assert total(a.astype(np.complex64)) == total(a)

    @njit
    def store(a, z):
        a[0] = z
        a[1] = 2
        return a[0]

    b = np.zeros(2, np.complex64)
    assert store(b, 1.5 - 2j) == 1.5 - 2j
    assert b.tolist() == [1.5 - 2j, 2 + 0j]


J = 2 + 0.5j


def test_complex_global():
    assert njit(lambda x: x * J)(2.0) == 4 + 1j


def test_cpu_ufunc():
    f = vectorize(["complex128(complex128, complex128)"])(lambda a, b: a * b + 1)
    x = np.array([1 + 1j, 2 - 3j])
    np.testing.assert_array_equal(f(x, x), x * x + 1)
    g = vectorize(["float32(complex64)"])(lambda z: abs(z))
    np.testing.assert_array_equal(g(np.array([3 + 4j], np.complex64)), np.array([5], np.float32))


def _lt(a, b):
    return a < b


def _floordiv(a, b):
    return a // b


def _mod(a, b):
    return a % b


def _math_sqrt(a, b):
    return math.sqrt(a)


def _invert(a, b):
    return ~a


def _max(a, b):
    return max(a, b)


def _float(a, b):
    return float(a)


def _int(a, b):
    return int(a)


def _round(a, b):
    return round(a)


def _phase_of_real(a, b):
    return cmath.phase(1.0)


@pytest.mark.parametrize("f, message", [
    (_lt, "complex numbers have no order"),
    (_floordiv, "unsupported operand type"),
    (_mod, "unsupported operand type"),
    (_math_sqrt, "No implementation of function math.sqrt"),
    (_invert, "bad operand type for unary ~"),
    (_max, "No implementation of function max"),
    (_float, "No implementation of function float"),
    (_int, "No implementation of function int"),
    (_round, "No implementation of function round"),
    (_phase_of_real, "No implementation of function cmath.phase"),
])
def test_refused_like_numba(f, message):
    with pytest.raises(TypingError, match=message):
        njit(f)(1 + 1j, 2j)


def test_store_complex_into_real_array_is_refused():
    def s(a, x):
        a[0] = x
    with pytest.raises(TypingError, match="complex number does not convert"):
        njit(s)(np.zeros(2), 1j)


# ---- kernels (simulator and GPU) -------------------------------------------------------------------

@cuda.jit(device=True)
def _rotate(z, k):
    return z * 1j ** k


@cuda.jit
def _kernel(out, a, z, x):
    i = cuda.grid(1)
    if i < a.shape[0]:
        w = a[i] * z + x
        out[i] = _rotate(w, 1) + abs(w) + w.conjugate() * cmath.exp(1j * w.imag)


def _kernel_ref(a, z, x):
    w = a * z + x
    return w * 1j + abs(w) + w.conjugate() * np.exp(1j * w.imag)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_kernel_scalars_arrays_device_function(target, dtype):
    a = (np.arange(8) + 1j * np.arange(8)[::-1]).astype(dtype)
    out = np.zeros_like(a)
    d_a = cuda.to_device(a)
    d_out = cuda.device_array_like(out)
    z = 0.5 - 2j  # a Python complex: complex128, 16 bytes by value
    for _ in range(2):  # the second launch takes the fast path
        _kernel[1, 8](d_out, d_a, z, 1.5)
    got = d_out.copy_to_host()
    assert got.dtype == dtype
    np.testing.assert_allclose(got, _kernel_ref(a.astype(np.complex128), z, 1.5).astype(dtype),
                               rtol=1e-5 if dtype == np.complex64 else 1e-12)


def test_kernel_numpy_complex_scalar_and_declared_signature(target):
    @cuda.jit("void(complex64[::1], complex64)")
    def k(out, z):
        out[0] = z * 2
        out[1] = complex(z.imag, z.real)

    out = cuda.device_array(2, np.complex64)
    k[1, 1](out, np.complex64(1 - 2j))
    k[1, 1](out, np.complex64(1 - 2j))
    np.testing.assert_array_equal(out.copy_to_host(), np.array([2 - 4j, -2 + 1j], np.complex64))
    k[1, 1](out, 3.0)  # float64 -> complex64: Numba converts a declared signature's scalars
    np.testing.assert_array_equal(out.copy_to_host(), np.array([6, 3j], np.complex64))


def test_cuda_ufunc(target):
    f = vectorize(["complex128(complex128)"], target="cuda")(lambda z: cmath.sqrt(z) * z.conjugate())
    x = np.array([1 + 1j, -4, 2j, 3 - 0.5j])
    np.testing.assert_allclose(f(x), np.sqrt(x) * np.conj(x), rtol=1e-14)


def test_complex_device_arrays_round_trip(target):
    for dt in (np.complex64, np.complex128):
        a = np.array([1 + 2j, -3.5 + 0.25j], dt)
        d = cuda.to_device(a)
        assert d.dtype == dt
        np.testing.assert_array_equal(d.copy_to_host(), a)
        e = cuda.device_array(3, dt)
        assert e.dtype == dt and e.copy_to_host().shape == (3,)


def test_underlying_float():
    assert cujit.types.complex64.underlying_float is cujit.types.float32
    assert cujit.types.complex128.underlying_float is cujit.types.float64
    with pytest.raises(AttributeError):
        cujit.types.float32.underlying_float


def test_complex_typestr(target):
    d = cuda.to_device(np.array([1 + 2j], np.complex64))
    if target == "gpu":  # simulator device arrays have no __cuda_array_interface__ (host memory)
        assert d.__cuda_array_interface__["typestr"] == "<c8"
        e = cuda.as_cuda_array(d)
        assert e.dtype == np.complex64 and e.copy_to_host()[0] == 1 + 2j
    else:
        assert d.dtype.str == "<c8"
