"""Complex min/max/nanmin/nanmax of arrays in kernels (the whole-array reductions of
prelude/ufuncs.h run in GPU code too): Numba orders complex numbers by real part, then imaginary
part, with no NaN rule for min/max (a NaN part compares false, so a NaN is kept only where it
comes first) and, for nanmin/nanmax, a kept value whose real part is NaN replaced by the next
whose real part is a number. numba-cuda's arraymath copies Numba's, so the expectations are Numba
0.68's @njit results. The @jit cases are in tests/test_np20_differential.py (cmin*, cnanmin*)."""
import numpy as np
import pytest

from cujit import cuda

nan = float("nan")
ARRAYS = [
    np.array([1 + 2j, 1 + 1j, 3 - 1j, -1 + 5j, 3 + 0j]),
    np.array([1 + 2j, complex(nan, 0), 3 - 1j, -1 + 5j]),
    np.array([complex(nan, 1), 1 + 2j, complex(1, nan), 1 - 1j]),
]
EXPECTED = {
    "min": [-1 + 5j, -1 + 5j, complex(nan, 1)],
    "max": [3 + 0j, 3 - 1j, complex(nan, 1)],
    "nanmin": [-1 + 5j, -1 + 5j, 1 - 1j],
    "nanmax": [3 + 0j, 3 - 1j, 1 + 2j],
}


def _same(x, y):
    return repr(complex(x)) == repr(complex(y))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_complex_extremes_in_kernels(name, target):
    ns = {"np": np}
    exec(f"def k(a, out):\n    out[0] = np.{name}(a)\n", ns)
    k = cuda.jit(ns["k"])
    for a, want in zip(ARRAYS, EXPECTED[name]):
        out = np.zeros(1, np.complex128)
        k[1, 1](a, out)
        assert _same(out[0], want), (name, a, out[0], want)
