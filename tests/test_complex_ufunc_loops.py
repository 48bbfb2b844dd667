"""NumPy ufuncs of complex arguments in kernels (and @jit, which shares the prelude): the order
comparisons, maximum/minimum/fmax/fmin, log2, exp2, expm1, log1p, reciprocal, rint and sign.
Their complex loops were missing, so NVRTC and the host compiler rejected the generated code
(numba-cuda's test_ufuncs on the H100). Expectations are real Numba 0.68's (its loops copy
NumPy's: lexicographic order where a NaN imaginary part makes the real parts' order false; with
a NaN, maximum/minimum return the first NaN operand, fmax/fmin the first operand that is not)."""
import math

import numpy as np
import pytest

import cujit
from cujit import cuda

nan = math.nan
A = [complex(nan, 1), 1 + 1j, complex(2, nan), complex(nan, 2), 1 + 2j, 1 + 1j, complex(1, nan), 3 + 0j]
B = [1 + 1j, complex(nan, 3), 1 + 1j, complex(4, nan), 1 + 1j, 1 + 2j, complex(0, 5), complex(3, -0.0)]
BINARY = {  # Numba 0.68 on A, B
    "maximum": [complex(nan, 1), complex(nan, 3), complex(2, nan), complex(nan, 2), 1 + 2j, 1 + 2j, complex(1, nan), 3 + 0j],
    "minimum": [complex(nan, 1), complex(nan, 3), complex(2, nan), complex(nan, 2), 1 + 1j, 1 + 1j, complex(1, nan), 3 + 0j],
    "fmax": [1 + 1j, 1 + 1j, 1 + 1j, complex(nan, 2), 1 + 2j, 1 + 2j, 5j, 3 + 0j],
    "fmin": [1 + 1j, 1 + 1j, 1 + 1j, complex(nan, 2), 1 + 1j, 1 + 1j, 5j, 3 + 0j],
    "less": [False, False, False, False, False, True, False, False],
    "greater_equal": [False, False, False, False, True, False, False, True],
    "less_equal": [False, False, False, False, False, True, False, True],
    "greater": [False, False, False, False, True, False, False, False],
}
X = [0.5 + 0.25j, -1.5 + 2.5j, 0j, 3 - 4j]
UNARY = {  # Numba 0.68 on X as complex128
    "reciprocal": [1.6 - 0.8j, -0.17647058823529413 - 0.29411764705882354j, complex(nan, nan), 0.12 + 0.16j],
    "rint": [0j, -2 + 2j, 0j, 3 - 4j],
    "sign": [0.8944271909999159 + 0.4472135954999579j, -0.5144957554275265 + 0.8574929257125441j, 0j, 0.6 - 0.8j],
    "log2": [-0.8390359525563188 + 0.6689021062254881j, 1.5437314206251698 + 3.04584060395366j,
             complex(-math.inf, 0), 2.321928094887362 - 1.3378042124509761j],
    "exp2": [1.3930334183655622 + 0.24383989689293284j, -0.05705044552974223 + 0.34892011501897957j, 1 + 0j,
             -7.461496614688567 - 2.8854927255134477j],
    "expm1": [0.5974665191199127 + 0.4079001700783598j, -1.1787593032388795 + 0.13353718535828998j, 0j,
              -14.128783081462158 + 15.200784463067954j],
    "log1p": [0.41916459520222155 + 0.16514867741462683j, 0.9359010884507957 + 1.7681918866447774j, 0j,
              1.7328679513998633 - 0.7853981633974483j],
}


def _parts(a):
    a = np.asarray(a)
    return np.stack([a.real, a.imag]) if a.dtype.kind == "c" else a


def _check(got, expected, dtype, exact):
    expected = np.array(expected, dtype=dtype if np.asarray(expected).dtype.kind == "c" else bool)
    assert got.dtype == expected.dtype
    if exact:  # which operand was chosen, NaN parts included
        np.testing.assert_array_equal(_parts(got), _parts(expected))
    else:
        rtol = 2e-6 if dtype == np.complex64 else 1e-14
        np.testing.assert_allclose(_parts(got), _parts(expected), rtol=rtol, atol=1e-7 if dtype == np.complex64 else 1e-15)


def _kernel(name, nin):
    fn = getattr(np, name)
    if nin == 2:
        @cuda.jit
        def k(a, b, r):
            i = cuda.grid(1)
            if i < r.size:
                r[i] = fn(a[i], b[i])
    else:
        @cuda.jit
        def k(a, r):
            i = cuda.grid(1)
            if i < r.size:
                r[i] = fn(a[i])
    return k


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_complex_ufuncs_in_kernels(target, name, dtype):
    a, b = np.array(A, dtype), np.array(B, dtype)
    out = np.zeros(len(A), dtype if name in ("maximum", "minimum", "fmax", "fmin") else np.bool_)
    _kernel(name, 2)[1, 32](a, b, out)
    _check(out, BINARY[name], dtype, exact=True)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_complex_ufuncs_in_kernels(target, name, dtype):
    x = np.array(X, dtype)
    out = np.zeros(len(X), dtype)
    _kernel(name, 1)[1, 32](x, out)
    _check(out, UNARY[name], dtype, exact=name == "rint")


def test_complex_ufuncs_in_jit_and_cuda_vectorize(target):
    @cujit.njit
    def both(a, b):
        return np.maximum(a, b), np.greater_equal(a, b), np.log2(a)

    a, b = np.array(A), np.array(B)
    mx, ge, _ = both(a, b)
    _check(mx, BINARY["maximum"], np.complex128, exact=True)
    _check(ge, BINARY["greater_equal"], np.complex128, exact=True)
    _check(both(np.array(X), np.array(X))[2], UNARY["log2"], np.complex128, exact=False)

    @cujit.vectorize(["complex64(complex64, complex64)"], target="cuda")
    def fmin(x, y):
        return np.fmin(x, y)

    _check(fmin(a.astype(np.complex64), b.astype(np.complex64)), BINARY["fmin"], np.complex64, exact=True)
