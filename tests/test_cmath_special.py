"""cmath and complex arithmetic on special values (issue 18): every cmath function on a grid of
components {0.0, -0.0, tiny, 1, -1, 2.5, large, -large, inf, -inf, nan} for complex64 and
complex128, in kernels (simulator, and the GPU where there is one; NVRTC compiles the same code to
PTX), in @jit and in a CUDA ufunc, against Python's cmath computed here (complex64: computed in
complex128 and rounded, as numba-cuda's tests do). Where CPython raises (ValueError for a domain
error, OverflowError), the expected value is C99 Annex G's, the one CPython computes before raising
(cmath_testcases.txt's rows): pinned in RAISED below; Numba returns these where its value is not
the product of an overflow (its exp(1e300+0j) is inf+nanj; here it is inf+0j, as C99 says)."""
import cmath
import itertools
import math
import os
import re

import numpy as np
import pytest

from cujit import cuda, jit, vectorize

INF, NAN = math.inf, math.nan
LARGE = float(np.float32(1e38))  # the same value in both grids, so that RAISED serves both
GRIDS = {
    np.complex128: [0.0, -0.0, 5e-324, 1.0, -1.0, 2.5, LARGE, -LARGE, INF, -INF, NAN],
    np.complex64: [0.0, -0.0, float(np.float32(1e-45)), 1.0, -1.0, 2.5, LARGE, -LARGE, INF, -INF, NAN],
}
FUNCS = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
         "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]

# Where CPython raises: "function re im -> re im" (t: the grid's tiny value, L: LARGE); a case
# not listed here is nan+nanj.
RAISED = """
exp L 0.0 -> inf 0.0
exp L -0.0 -> inf -0.0
exp L t -> inf inf
exp L 1.0 -> inf inf
exp L -1.0 -> inf -inf
exp L 2.5 -> -inf inf
exp L L -> inf inf
exp L -L -> inf -inf
exp inf inf -> inf nan
exp inf -inf -> inf nan
log 0.0 0.0 -> -inf 0.0
log 0.0 -0.0 -> -inf -0.0
log -0.0 0.0 -> -inf 3.141592653589793
log -0.0 -0.0 -> -inf -3.141592653589793
log10 0.0 0.0 -> -inf 0.0
log10 0.0 -0.0 -> -inf -0.0
log10 -0.0 0.0 -> -inf 1.3643763538418412
log10 -0.0 -0.0 -> -inf -1.3643763538418412
sin 0.0 L -> 0.0 inf
sin 0.0 -L -> 0.0 -inf
sin -0.0 L -> -0.0 inf
sin -0.0 -L -> -0.0 -inf
sin t L -> inf inf
sin t -L -> inf -inf
sin 1.0 L -> inf inf
sin 1.0 -L -> inf -inf
sin -1.0 L -> -inf inf
sin -1.0 -L -> -inf -inf
sin 2.5 L -> inf -inf
sin 2.5 -L -> inf inf
sin L L -> inf inf
sin L -L -> inf -inf
sin -L L -> -inf inf
sin -L -L -> -inf -inf
sin inf 0.0 -> nan -0.0
sin inf -0.0 -> nan -0.0
sin inf inf -> nan -inf
sin inf -inf -> nan -inf
sin -inf 0.0 -> nan -0.0
sin -inf -0.0 -> nan -0.0
sin -inf inf -> nan -inf
sin -inf -inf -> nan -inf
cos 0.0 L -> inf -0.0
cos 0.0 -L -> inf 0.0
cos -0.0 L -> inf 0.0
cos -0.0 -L -> inf -0.0
cos t L -> inf -inf
cos t -L -> inf inf
cos 1.0 L -> inf -inf
cos 1.0 -L -> inf inf
cos -1.0 L -> inf inf
cos -1.0 -L -> inf -inf
cos 2.5 L -> -inf -inf
cos 2.5 -L -> -inf inf
cos L L -> inf -inf
cos L -L -> inf inf
cos -L L -> inf inf
cos -L -L -> inf -inf
cos inf 0.0 -> nan 0.0
cos inf -0.0 -> nan 0.0
cos inf inf -> inf nan
cos inf -inf -> inf nan
cos -inf 0.0 -> nan 0.0
cos -inf -0.0 -> nan 0.0
cos -inf inf -> inf nan
cos -inf -inf -> inf nan
atan 0.0 1.0 -> 0.0 inf
atan 0.0 -1.0 -> 0.0 -inf
atan -0.0 1.0 -> -0.0 inf
atan -0.0 -1.0 -> -0.0 -inf
sinh 0.0 inf -> 0.0 nan
sinh 0.0 -inf -> 0.0 nan
sinh -0.0 inf -> 0.0 nan
sinh -0.0 -inf -> 0.0 nan
sinh L 0.0 -> inf 0.0
sinh L -0.0 -> inf -0.0
sinh L t -> inf inf
sinh L 1.0 -> inf inf
sinh L -1.0 -> inf -inf
sinh L 2.5 -> -inf inf
sinh L L -> inf inf
sinh L -L -> inf -inf
sinh -L 0.0 -> -inf 0.0
sinh -L -0.0 -> -inf -0.0
sinh -L t -> -inf inf
sinh -L 1.0 -> -inf inf
sinh -L -1.0 -> -inf -inf
sinh -L 2.5 -> inf inf
sinh -L L -> -inf inf
sinh -L -L -> -inf -inf
sinh inf inf -> inf nan
sinh inf -inf -> inf nan
sinh -inf inf -> inf nan
sinh -inf -inf -> inf nan
cosh 0.0 inf -> nan 0.0
cosh 0.0 -inf -> nan 0.0
cosh -0.0 inf -> nan 0.0
cosh -0.0 -inf -> nan 0.0
cosh L 0.0 -> inf 0.0
cosh L -0.0 -> inf -0.0
cosh L t -> inf inf
cosh L 1.0 -> inf inf
cosh L -1.0 -> inf -inf
cosh L 2.5 -> -inf inf
cosh L L -> inf inf
cosh L -L -> inf -inf
cosh -L 0.0 -> inf -0.0
cosh -L -0.0 -> inf 0.0
cosh -L t -> inf -inf
cosh -L 1.0 -> inf -inf
cosh -L -1.0 -> inf inf
cosh -L 2.5 -> -inf -inf
cosh -L L -> inf -inf
cosh -L -L -> inf inf
cosh inf inf -> inf nan
cosh inf -inf -> inf nan
cosh -inf inf -> inf nan
cosh -inf -inf -> inf nan
atanh 1.0 0.0 -> inf 0.0
atanh 1.0 -0.0 -> inf -0.0
atanh -1.0 0.0 -> -inf 0.0
atanh -1.0 -0.0 -> -inf -0.0
rect inf inf -> inf nan
rect inf -inf -> inf nan
rect -inf inf -> -inf nan
rect -inf -inf -> -inf nan
"""


def _raised():
    rows = {}
    for line in RAISED.strip().splitlines():
        f, x, y, _, a, b = line.split()
        rows[(f, x, y)] = complex(float(a), float(b))
    return rows


_RAISED = _raised()


def _token(v, tiny):
    if v == tiny and v != 0:
        return "t"
    if abs(v) == LARGE:
        return "L" if v > 0 else "-L"
    return repr(v)


def expected(name, z, tiny):
    try:
        return complex(getattr(cmath, name)(z))
    except (ValueError, OverflowError):
        return _RAISED.get((name, _token(z.real, tiny), _token(z.imag, tiny)), complex(NAN, NAN))


def _part_ok(g, w, f32, ulps):
    if math.isnan(w):
        return math.isnan(g)
    if math.isinf(w) or math.isnan(g) or math.isinf(g):
        return g == w
    if g == 0 and w == 0:
        return math.copysign(1, g) == math.copysign(1, w)
    spacing = float(np.spacing(np.float32(abs(w)))) if f32 else math.ulp(w)
    return abs(g - w) <= ulps * spacing


def _near_in_norm(g, w, f32, ulps):
    # Each part within `ulps` of the larger part's spacing: the error bound of complex arithmetic
    # whose products are fused (a*b + c*d as one fma), as NVRTC contracts them on the GPU (NVVM
    # does the same for numba-cuda): z / z is then 1 + 2e-17j, not 1 + 0j.
    if not all(math.isfinite(v) for v in (g.real, g.imag, w.real, w.imag)):
        return False
    m = max(abs(w.real), abs(w.imag))
    spacing = float(np.spacing(np.float32(m))) if f32 else math.ulp(m)
    return abs(g.real - w.real) <= ulps * spacing and abs(g.imag - w.imag) <= ulps * spacing


def check(got, want, dtype, what, ulps=4, fused=False):
    f32 = dtype in (np.complex64, np.float32)
    bad = []
    for g, (w, label) in zip(got, want):
        g, w = complex(g), complex(w)
        if f32:
            with np.errstate(over="ignore"):  # a double past float32's range rounds to inf
                w = complex(np.complex64(w))
        if fused and _near_in_norm(g, w, f32, ulps):
            continue
        if not (_part_ok(g.real, w.real, f32, ulps) and _part_ok(g.imag, w.imag, f32, ulps)):
            bad.append("%s%s: got %r, want %r" % (what, label, g, w))
    assert not bad, "\n".join(bad[:20]) + "\n(%d wrong)" % len(bad)


def _all(z, out, fo, bo, i):
    out[0, i] = cmath.sqrt(z)
    out[1, i] = cmath.exp(z)
    out[2, i] = cmath.log(z)
    out[3, i] = cmath.log10(z)
    out[4, i] = cmath.sin(z)
    out[5, i] = cmath.cos(z)
    out[6, i] = cmath.tan(z)
    out[7, i] = cmath.asin(z)
    out[8, i] = cmath.acos(z)
    out[9, i] = cmath.atan(z)
    out[10, i] = cmath.sinh(z)
    out[11, i] = cmath.cosh(z)
    out[12, i] = cmath.tanh(z)
    out[13, i] = cmath.asinh(z)
    out[14, i] = cmath.acosh(z)
    out[15, i] = cmath.atanh(z)
    out[16, i] = cmath.rect(z.real, z.imag)
    fo[0, i] = cmath.phase(z)
    fo[1, i] = abs(z)
    r, p = cmath.polar(z)
    fo[2, i] = r
    fo[3, i] = p
    bo[0, i] = cmath.isnan(z)
    bo[1, i] = cmath.isinf(z)
    bo[2, i] = cmath.isfinite(z)


_all_dev = cuda.jit(device=True)(_all)
_all_cpu = jit(_all)


@cuda.jit
def _all_kernel(a, out, fo, bo):
    i = cuda.grid(1)
    if i < a.shape[0]:
        _all_dev(a[i], out, fo, bo, i)


@jit
def _all_loop(a, out, fo, bo):
    for i in range(a.shape[0]):
        _all_cpu(a[i], out, fo, bo, i)


def _grid(dtype):
    g = GRIDS[dtype]
    return [complex(x, y) for x, y in itertools.product(g, g)], g[2]


def _check_all(dtype, zs, tiny, out, fo, bo):
    for k, name in enumerate(FUNCS):
        check(out[k], [(expected(name, z, tiny), "(%r)" % z) for z in zs], dtype, "cmath." + name)
    rect = []
    for z in zs:
        try:
            w = cmath.rect(z.real, z.imag)
        except ValueError:
            w = _RAISED.get(("rect", _token(z.real, tiny), _token(z.imag, tiny)), complex(NAN, NAN))
        rect.append((w, "(%r, %r)" % (z.real, z.imag)))
    check(out[16], rect, dtype, "cmath.rect")
    fdt = np.float32 if dtype == np.complex64 else np.float64
    # phase is atan2, abs and polar's modulus hypot (abs(inf+nanj) is inf); CPython's cmath.phase
    # raises OverflowError where atan2 underflows, so math's functions are the reference.
    for k, (what, f) in enumerate([("cmath.phase", lambda z: math.atan2(z.imag, z.real)),
                                   ("abs", lambda z: math.hypot(z.real, z.imag)),
                                   ("cmath.polar[0]", lambda z: math.hypot(z.real, z.imag)),
                                   ("cmath.polar[1]", lambda z: math.atan2(z.imag, z.real))]):
        check(fo[k], [(f(z), "(%r)" % z) for z in zs], fdt, what)
    assert fo.dtype == fdt
    for k, f in enumerate([cmath.isnan, cmath.isinf, cmath.isfinite]):
        assert list(bo[k]) == [f(z) for z in zs], f.__name__


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_cmath_grid_kernel(target, dtype):
    zs, tiny = _grid(dtype)
    fdt = np.float32 if dtype == np.complex64 else np.float64
    a = np.array(zs, dtype)
    out = np.zeros((17, len(zs)), dtype)
    fo = np.zeros((4, len(zs)), fdt)
    bo = np.zeros((3, len(zs)), np.bool_)
    _all_kernel[(len(zs) + 63) // 64, 64](a, out, fo, bo)
    _check_all(dtype, zs, tiny, out, fo, bo)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_cmath_grid_jit(dtype):
    zs, tiny = _grid(dtype)
    fdt = np.float32 if dtype == np.complex64 else np.float64
    a = np.array(zs, dtype)
    out = np.zeros((17, len(zs)), dtype)
    fo = np.zeros((4, len(zs)), fdt)
    bo = np.zeros((3, len(zs)), np.bool_)
    _all_loop(a, out, fo, bo)
    _check_all(dtype, zs, tiny, out, fo, bo)


def test_cmath_cuda_ufunc(target):
    f = vectorize(["complex128(complex128)", "complex64(complex64)"], target="cuda")(lambda z: cmath.exp(z))
    for dtype in (np.complex128, np.complex64):
        zs, tiny = _grid(dtype)
        got = f(np.array(zs, dtype))
        assert got.dtype == dtype
        check(got, [(expected("exp", z, tiny), "(%r)" % z) for z in zs], dtype, "exp ufunc")


def _testcases():
    """CPython's own cmath_testcases.txt (correctly rounded values, C99's special values with the
    signs C99 leaves free marked): in the test package of most Python installs."""
    import test

    for rel in ("mathdata/cmath_testcases.txt", "cmath_testcases.txt"):
        path = os.path.join(os.path.dirname(test.__file__), rel)
        if os.path.exists(path):
            return path
    return None


def test_cmath_cpython_testcases():
    try:
        path = _testcases()
    except ImportError:
        path = None
    if path is None:
        pytest.skip("CPython's cmath_testcases.txt is not installed")
    rows = {name: [] for name in FUNCS}
    with open(path) as fh:
        lines = fh.read().splitlines()
    for line in lines:
        line = line.split("--")[0].strip()
        m = re.match(r"\S+\s+(\S+)\s+(\S+)\s+(\S+)\s+->\s+(\S+)\s+(\S+)(.*)", line)
        if m and m.group(1) in rows:
            f, x, y, a, b, flags = m.groups()
            rows[f].append((complex(float(x), float(y)), complex(float(a), float(b)), flags.split()))
    for k, name in enumerate(FUNCS):
        zs = np.array([z for z, _, _ in rows[name]])
        out = np.zeros((17, len(zs)), np.complex128)
        fo = np.zeros((4, len(zs)))
        bo = np.zeros((3, len(zs)), np.bool_)
        _all_loop(zs, out, fo, bo)
        bad = []
        for g, (z, w, flags) in zip(out[k], rows[name]):
            g = complex(g)
            gr, gi = g.real, g.imag
            if "ignore-real-sign" in flags:
                gr, w = abs(gr), complex(abs(w.real), w.imag)
            if "ignore-imag-sign" in flags:
                gi, w = abs(gi), complex(w.real, abs(w.imag))
            # As CPython's test_cmath: the real part of log near |z| = 1 to an absolute 2e-15.
            real_ok = _part_ok(gr, w.real, False, 5) or (name in ("log", "log10") and abs(gr - w.real) <= 2e-15)
            if not (real_ok and _part_ok(gi, w.imag, False, 5)):
                bad.append("cmath.%s(%r): got %r, want %r" % (name, z, g, w))
        assert not bad, "\n".join(bad[:20])


# ---- division, **, == of complex ------------------------------------------------------------------
BINARY = [0.0, -0.0, 1.0, -1.0, 2.5, LARGE, INF, -INF, NAN]


def _quot(a, b, f):
    """Numba's complex division (CPython 3.11's _Py_c_quot) in the parts' float type f (complex64
    in float32, as Numba: (1+1e38j) / (1+1e38j) is 1+0j there, 1-0j in float64), without
    exceptions; b == 0 is left out (ZeroDivisionError on the CPU)."""
    ar, ai, br, bi = f(a.real), f(a.imag), f(b.real), f(b.imag)
    with np.errstate(all="ignore"):
        if abs(br) >= abs(bi):
            ratio = bi / br
            denom = br + bi * ratio
            return complex((ar + ai * ratio) / denom, (ai - ar * ratio) / denom)
        if abs(bi) >= abs(br):
            ratio = br / bi
            denom = br * ratio + bi
            return complex((ar * ratio + ai) / denom, (ai * ratio - ar) / denom)
        return complex(NAN, NAN)


def _cpow(a, b):
    """Numba's complex ** (checked against Numba 0.68 @jit on this grid): z * z for an exponent
    of 2, else CPython's _Py_c_pow without its integer-exponent path (0 ** w is nan+nanj where
    CPython raises)."""
    if b == 2:
        return a * a
    if b == 0:
        return complex(1, 0)
    if a == 0:
        return complex(NAN, NAN) if (b.imag != 0 or b.real < 0) else 0j
    f = np.float64
    with np.errstate(all="ignore"):
        vabs, at = np.hypot(f(a.real), f(a.imag)), np.arctan2(f(a.imag), f(a.real))
        length, ph = np.power(vabs, f(b.real)), at * f(b.real)
        if b.imag != 0:
            length, ph = length / np.exp(at * f(b.imag)), ph + f(b.imag) * np.log(vabs)
        return complex(length * np.cos(ph), length * np.sin(ph))


def _binary(a, b, out, bo, i):
    if b != 0:
        out[0, i] = a / b
    out[1, i] = a ** b
    bo[0, i] = a == b
    bo[1, i] = a != b


_binary_dev = cuda.jit(device=True)(_binary)
_binary_cpu = jit(_binary)


@cuda.jit
def _binary_kernel(a, b, out, bo):
    i = cuda.grid(1)
    if i < a.shape[0]:
        _binary_dev(a[i], b[i], out, bo, i)


@jit
def _binary_loop(a, b, out, bo):
    for i in range(a.shape[0]):
        _binary_cpu(a[i], b[i], out, bo, i)


def _pow_ok(g, w, dtype):
    if not (math.isfinite(w.real) and math.isfinite(w.imag)):
        return all(_part_ok(x, y, False, 0) if not math.isfinite(y) else math.isfinite(x) or True
                   for x, y in ((g.real, w.real), (g.imag, w.imag)))
    tol = (1e-5 if dtype == np.complex64 else 1e-9) * max(abs(w), 1e-300)
    return abs(g - w) <= tol


def _check_binary(dtype, a, b, out, bo, fused=False):
    zs = [complex(x, y) for x, y in itertools.product(BINARY, BINARY)]
    pairs = list(itertools.product(zs, zs))
    quot, bad = [], []
    for i, (x, y) in enumerate(pairs):
        if y != 0:
            quot.append((out[0, i], _quot(x, y, np.float32 if dtype == np.complex64 else np.float64), "(%r / %r)" % (x, y)))
        w = _cpow(x, y)
        if dtype == np.complex64:
            with np.errstate(over="ignore"):
                w = complex(np.complex64(w))
        if not _pow_ok(complex(out[1, i]), w, dtype):
            bad.append("(%r) ** (%r): got %r, want %r" % (x, y, complex(out[1, i]), w))
        assert bo[0, i] == (x == y) and bo[1, i] == (x != y), (x, y)
    check([g for g, _, _ in quot], [(w, s) for _, w, s in quot], dtype, "", fused=fused)
    assert not bad, "\n".join(bad[:20]) + "\n(%d wrong)" % len(bad)


def _binary_arrays(dtype):
    zs = [complex(x, y) for x, y in itertools.product(BINARY, BINARY)]
    pairs = list(itertools.product(zs, zs))
    a = np.array([p[0] for p in pairs], dtype)
    b = np.array([p[1] for p in pairs], dtype)
    return a, b, np.zeros((2, len(pairs)), dtype), np.zeros((2, len(pairs)), np.bool_)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_division_power_comparison_kernel(target, dtype):
    a, b, out, bo = _binary_arrays(dtype)
    _binary_kernel[(len(a) + 127) // 128, 128](a, b, out, bo)
    _check_binary(dtype, a, b, out, bo, fused=target == "gpu")


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_division_power_comparison_jit(dtype):
    a, b, out, bo = _binary_arrays(dtype)
    _binary_loop(a, b, out, bo)
    _check_binary(dtype, a, b, out, bo)
