"""numba.cuda.libdevice and numba.cuda.libdevicefuncs: the table (one entry per libdevice
function, in numba-cuda's shape), calls of every result shape in kernels (a value, a UniTuple and
a Tuple of pointer outputs, integer and float), every entry typed and compiled to PTX by NVRTC,
and every entry run on the simulator (the few without an exact host implementation refused).

Expected values are NumPy's, Python's, or exact IEEE results worked out in the comments; Numba
types libdevice's parameters and results with their LLVM widths, signed (umin and float2uint
return int32), which is pinned here too."""
import importlib.util
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from cujit import cuda, types
from cujit.cuda import compile_ptx, libdevice
from cujit.cuda.libdevicefuncs import arg, create_signature, functions
from cujit.errors import SimulatorError

# No exact host implementation: the simulator refuses these when they run.
NO_HOST = {"erfinv", "erfinvf", "erfcinv", "erfcinvf", "normcdfinv", "normcdfinvf", "erfcx", "erfcxf"}


def test_table_has_numba_cudas_shape():
    assert len(functions) == 317  # the functions the libdevice user guide documents
    assert functions["__nv_sinf"] == (types.float32, [arg("a", types.float32, False)])
    assert functions["__nv_sincos"][0] == types.void
    assert [a.is_ptr for a in functions["__nv_sincos"][1]] == [False, True, True]
    assert functions["__nv_sad"] == (types.int32, [arg("x", types.int32, False), arg("y", types.int32, False),
                                                   arg("z", types.int32, False)])
    assert functions["__nv_float2half_rn"][0] == types.int16
    # create_signature: outputs after the value; one type makes a UniTuple, as in Numba.
    s = create_signature(*functions["__nv_sincos"])
    assert isinstance(s.return_type, types.UniTuple) and not isinstance(s.return_type, types.Tuple)
    assert str(s.return_type) == "UniTuple(float64 x 2)" and s.args == (types.float64,)
    f = create_signature(*functions["__nv_frexp"])
    assert isinstance(f.return_type, types.Tuple) and str(f.return_type) == "Tuple(float64, int32)"
    assert len(f.return_type) == 2 and [t[::1] for t in f.return_type] == [types.float64[::1], types.int32[::1]]
    assert str(create_signature(*functions["__nv_sad"])) == "int32(int32, int32, int32)"
    for libname in functions:
        assert callable(getattr(libdevice, libname[5:]))


def test_stubs_raise_outside_compiled_code():
    with pytest.raises(RuntimeError, match="libdevice.sinf.. can only be called inside"):
        libdevice.sinf(1.0)


def use_sincos(s, c, x):
    i = cuda.grid(1)
    if i < len(x):
        sr, cr = libdevice.sincos(x[i])
        s[i] = sr
        c[i] = cr


def use_frexp(frac, exp, x):
    i = cuda.grid(1)
    if i < len(x):
        fracr, expr = libdevice.frexp(x[i])
        frac[i] = fracr
        exp[i] = expr


def use_sad(r, x, y, z):
    i = cuda.grid(1)
    if i < len(x):
        r[i] = libdevice.sad(x[i], y[i], z[i])


def test_numba_cudas_three_kernels(target):
    # numba-cuda's own checks (cudapy/test_libdevice.py), which it runs on the GPU only.
    arr = np.arange(100, dtype=np.float64)
    sres, cres = np.zeros_like(arr), np.zeros_like(arr)
    cuda.jit(use_sincos)[4, 32](sres, cres, arr)
    np.testing.assert_allclose(np.cos(arr), cres)
    np.testing.assert_allclose(np.sin(arr), sres)

    arr = np.linspace(start=1.0, stop=10.0, num=100, dtype=np.float64)
    fracres, expres = np.zeros_like(arr), np.zeros(arr.shape, dtype=np.int32)
    cuda.jit(use_frexp)[4, 32](fracres, expres, arr)
    frac_expect, exp_expect = np.frexp(arr)
    np.testing.assert_array_equal(frac_expect, fracres)
    np.testing.assert_array_equal(exp_expect, expres)

    x, y, z = np.arange(0, 200, 2), np.arange(50, 150), np.arange(15, 115)
    r = np.zeros_like(x)
    cuda.jit(use_sad)[4, 32](r, x, y, z)
    np.testing.assert_array_equal(np.abs(x - y) + z, r)


@cuda.jit
def sample(f, i, x, n):
    s, c = libdevice.sincos(x[0])            # UniTuple(float64 x 2) from two outputs
    f[0] = s
    f[1] = c
    m, e = libdevice.frexp(x[1])             # Tuple(float64, int32): value and output
    f[2] = m
    i[0] = e
    fr, ip = libdevice.modff(x[2])           # UniTuple(float32 x 2)
    f[3] = fr
    f[4] = ip
    r, q = libdevice.remquo(x[3], x[4])      # Tuple(float64, int32)
    f[5] = r
    i[1] = q
    f[6] = libdevice.sinf(x[0])              # float32 in and out
    f[7] = libdevice.pow(x[1], x[2])
    f[8] = libdevice.fadd_ru(1.0, 1e-8)      # directed roundings: exact IEEE results
    f[9] = libdevice.fadd_rd(1.0, 1e-8)
    f[10] = libdevice.dmul_rz(x[5], 3.0)
    f[11] = libdevice.dmul_ru(x[5], 3.0)
    f[12] = libdevice.dmul_rn(x[5], 3.0)
    f[13] = libdevice.sinpi(x[6])
    f[14] = libdevice.cospi(x[7])
    f[15] = libdevice.half2float(libdevice.float2half_rn(x[8]))
    f[16] = libdevice.hiloint2double(libdevice.double2hiint(x[9]), libdevice.double2loint(x[9]))
    f[17] = libdevice.saturatef(x[10])
    f[18] = libdevice.fsqrt_rd(2.0)
    f[19] = libdevice.fsqrt_ru(2.0)
    f[20] = libdevice.normcdf(x[11])
    f[21] = libdevice.j0(x[1])
    f[22] = libdevice.fdiv_rz(1.0, 3.0)
    f[23] = libdevice.fdiv_ru(1.0, 3.0)
    f[24] = libdevice.ull2double_rd(n[15])
    f[25] = libdevice.ll2float_ru(n[16])
    i[2] = libdevice.sad(n[0], n[1], n[2])
    i[3] = libdevice.umin(n[3], n[4])        # unsigned compare on int32 bits: -1 is 0xffffffff
    i[4] = libdevice.float2int_rd(x[12])
    i[5] = libdevice.float2int_rn(x[12])
    i[6] = libdevice.float2int_ru(x[12])
    i[7] = libdevice.float2int_rz(x[12])
    i[8] = libdevice.float2uint_rn(x[13])    # int32, as Numba types it
    i[9] = libdevice.double2ll_rz(x[14])     # saturates
    i[10] = libdevice.brev(n[5])
    i[11] = libdevice.popcll(n[6])
    i[12] = libdevice.clz(n[5])
    i[13] = libdevice.ffs(n[7])
    i[14] = libdevice.byte_perm(n[8], n[9], n[10])
    i[15] = libdevice.mul64hi(n[11], n[11])
    i[16] = libdevice.umulhi(n[3], n[3])
    i[17] = libdevice.mul24(n[12], n[12])
    i[18] = libdevice.hadd(n[13], n[13])     # no overflow
    i[19] = libdevice.isnanf(x[15])
    i[20] = libdevice.signbitd(x[12])
    i[21] = libdevice.llrint(x[16])
    i[22] = libdevice.llround(x[16])
    i[23] = libdevice.ilogb(x[17])
    i[24] = libdevice.llabs(n[14])
    i[25] = libdevice.usad(n[3], n[4], n[4])
    i[26] = libdevice.float2half_rn(x[18])   # int16 (half bits, sign bit set)
    f[26] = libdevice.half2float(n[17])


def test_sample_of_every_shape(target):
    x = np.array([0.5, 3.0, 2.75, 7.0, 2.0, 1 / 3, 1.0, 0.5, 0.1, -1.2345e-300, 1.5, 0.0,
                  -2.5, 3e9, 1e300, np.nan, 2.5, 1024.0, -2.0])
    n = np.array([v % 2 ** 64 for v in (10, 30, 5, -1, 5, 1, -1, 8, 0x33221100, 0x77665544, 0x7531, 2 ** 62,
                                        1000, 2 ** 31 - 1, -(2 ** 63), 2 ** 64 - 1, 2 ** 62 + 1, -16384)],
                 dtype=np.uint64).view(np.int64)
    f = np.full(27, -99.0)
    i = np.full(27, -99, dtype=np.int64)
    sample[1, 1](f, i, x, n)
    np.testing.assert_allclose(f[:2], [np.sin(0.5), np.cos(0.5)], rtol=1e-15)
    assert f[2] == 0.75  # frexp(3) is 0.75 * 2**2
    assert f[3] == 0.75 and f[4] == 2.0
    assert f[5] == -1.0  # remquo(7, 2): 7 - 4*2 (the quotient 3.5 rounds to even 4)
    assert f[6] == pytest.approx(float(np.sin(np.float32(0.5))), rel=1e-6)
    assert f[7] == pytest.approx(3.0 ** 2.75, rel=1e-15)
    assert f[8] == float(np.nextafter(np.float32(1), np.float32(2))) and f[9] == 1.0
    # (1/3 in float64) * 3 is 1 - 2**-54 exactly: a tie, which nearest-even rounds up to 1.
    assert f[10] == 1 - 2 ** -53 and f[11] == 1.0 and f[12] == 1.0
    assert f[13] == 0.0 and not math.copysign(1, f[13]) < 0
    assert f[14] == 0.0
    assert f[15] == float(np.float16(0.1))
    assert f[16] == -1.2345e-300
    assert f[17] == 1.0
    assert f[18] == float(np.float32(math.sqrt(2))) and f[19] == float(np.nextafter(np.float32(math.sqrt(2)), np.float32(2)))
    assert f[20] == 0.5
    assert f[21] == pytest.approx(-0.2600519549019334, rel=1e-13)  # J0(3)
    third = np.float32(1) / np.float32(3)  # nearest: 0.3333333432674408, above 1/3
    assert f[22] == float(np.nextafter(third, np.float32(0))) and f[23] == float(third)
    assert f[24] == float(np.nextafter(2.0 ** 64, 0))  # 2**64 - 1 rounded down
    assert f[25] == float(np.nextafter(np.float32(2 ** 62), np.float32(2 ** 63)))
    assert f[26] == -2.0  # half2float(0xc000 as int16)
    expect = [
        2, 4,                           # frexp's exponent and remquo's quotient (above)
        25,                             # sad(10, 30, 5): |10 - 30| + 5
        5,                              # umin(0xffffffff, 5)
        -3, -2, -2, -2,                 # -2.5 rounded down, to nearest even, up, toward zero
        3_000_000_000 - 2 ** 32,        # float2uint_rn(3e9): uint32 3000000000 as int32
        2 ** 63 - 1,                    # double2ll_rz(1e300)
        -(2 ** 31),                     # brev(1): 0x80000000
        64, 31, 4,                      # popcll(-1), clz(1), ffs(8)
        0x77553311,                     # byte_perm: bytes 1, 3, 5, 7 of y:x
        2 ** 60,                        # mul64hi(2**62, 2**62)
        -2,                             # umulhi(0xffffffff, 0xffffffff) = 0xfffffffe
        1_000_000,                      # mul24(1000, 1000)
        2 ** 31 - 1,                    # hadd(INT32_MAX, INT32_MAX)
        1, 1,                           # isnanf(nan), signbitd(-2.5)
        2, 3,                           # llrint(2.5) to even, llround(2.5) away from zero
        10,                             # ilogb(1024)
        -(2 ** 63),                     # llabs(INT64_MIN) wraps, as on the GPU
        -1,                             # usad(0xffffffff, 5, 5): 0xfffffffa + 5, as int32
        -16384,                         # float2half_rn(-2.0): 0xc000 as int16
    ]
    assert list(i) == expect


@cuda.jit(device=True)
def polar(r, t):
    s, c = libdevice.sincos(t)
    return r * c, r * s


@cuda.jit
def use_polar(out, r, t):
    i = cuda.grid(1)
    if i < len(r):
        x, y = polar(r[i], t[i])
        out[i, 0] = x
        out[i, 1] = y


def test_in_device_functions_and_ufuncs(target):
    r, t = np.array([1.0, 2.0, 3.0]), np.array([0.0, 0.5, 2.0])
    out = np.zeros((3, 2))
    use_polar[1, 32](out, r, t)
    np.testing.assert_allclose(out, np.stack([r * np.cos(t), r * np.sin(t)], axis=1), rtol=1e-15)

    @cuda.vectorize(["float32(float32, float32)"])
    def fdiv_rz(a, b):
        return libdevice.fdiv_rz(a, b)

    res = fdiv_rz(np.ones(4, np.float32), np.full(4, 3, np.float32))
    assert res.dtype == np.float32
    assert list(res) == [np.nextafter(np.float32(1) / np.float32(3), np.float32(0))] * 4


def _batch_module(tmp_path, names, filename):
    """A module of kernels, each calling a batch of libdevice functions and storing every result
    member (floats in f, integers in k); inputs come from x (floats) and n (integers)."""
    lines = ["from cujit import cuda", "from cujit.cuda import libdevice", ""]
    batches = [names[j:j + 80] for j in range(0, len(names), 80)]
    for b, batch in enumerate(batches):
        lines.append("def k%d(f, k, x, n):" % b)
        for j, libname in enumerate(batch):
            retty, args = functions[libname]
            ins = [a for a in args if not a.is_ptr]
            call = ", ".join(("x[%d]" if a.ty in (types.float32, types.float64) else "n[%d]") % p
                             for p, a in enumerate(ins))
            ret = create_signature(retty, args).return_type
            members = len(ret) if isinstance(ret, (types.Tuple, types.UniTuple)) else 1
            names_ = ["v%d_%d" % (j, m) for m in range(members)]
            lines.append("    %s = libdevice.%s(%s)" % (", ".join(names_), libname[5:], call))
            for m, t in enumerate(ret if members > 1 else [ret]):
                dest = "f" if t in (types.float32, types.float64) else "k"
                lines.append("    %s[%d] = %s" % (dest, 4 * j + m, names_[m]))
        lines.append("")
    path = tmp_path / filename
    path.write_text("\n".join(lines))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return [getattr(mod, "k%d" % b) for b in range(len(batches))], batches


def test_every_function_compiles_to_ptx(tmp_path):
    # Four NVRTC compiles of 80 calls each: NVRTC links libdevice, so no call to it is left.
    kernels, _ = _batch_module(tmp_path, list(functions), "ld_ptx_batches.py")
    sig = (types.float64[::1], types.int64[::1], types.float64[::1], types.int64[::1])
    for k in kernels:
        ptx, resty = compile_ptx(k, sig)
        assert resty == types.void
        assert "ld.param" in ptx and "st.global" in ptx
        assert "__nv_" not in ptx


# Python's math for the functions of the C library (the float32 variants at float32 precision);
# libdevice's own error bounds are a few ulps.
REFERENCE = {name: getattr(math, name) for name in (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "erf", "erfc",
    "exp", "exp2", "expm1", "fabs", "floor", "lgamma", "log", "log10", "log1p", "log2", "sin", "sinh",
    "sqrt", "tan", "tanh", "trunc") if hasattr(math, name)}
REFERENCE.update(tgamma=math.gamma, atan2=math.atan2, hypot=math.hypot, pow=math.pow, fmod=math.fmod,
                 copysign=math.copysign, fmin=min, fmax=max, remainder=math.remainder, exp10=lambda v: 10.0 ** v,
                 rsqrt=lambda v: 1 / math.sqrt(v), rcbrt=lambda v: 1 / v ** (1 / 3),
                 fdim=lambda a, b: max(a - b, 0.0), nextafter=math.nextafter)


def test_every_function_runs(target, tmp_path):
    # Every function once, on this target; where Python has the same function, the values agree.
    names = [n for n in functions if target != "sim" or n[5:] not in NO_HOST]
    kernels, batches = _batch_module(tmp_path, names, "ld_run_batches_%s.py" % target)
    x = np.array([0.75, 0.5, 0.25])
    n = np.array([3, 2, 1], dtype=np.int64)
    for kern, batch in zip(kernels, batches):
        f = np.zeros(4 * len(batch))
        k = np.zeros(4 * len(batch), dtype=np.int64)
        cuda.jit(kern)[1, 1](f, k, x, n)
        for j, libname in enumerate(batch):
            name = libname[5:]
            base = name[:-1] if name.endswith("f") and name[:-1] in REFERENCE else name
            if base not in REFERENCE:
                continue
            single = base != name
            args = [float(np.float32(v)) if single else float(v) for v in x[:len(functions[libname][1])]]
            try:
                expect = REFERENCE[base](*args)
            except ValueError:  # outside the domain (acosh(0.75)): NaN
                assert math.isnan(f[4 * j]), name
                continue
            assert f[4 * j] == pytest.approx(expect, rel=2e-6 if single else 1e-13), name


def test_functions_without_host_implementation_are_refused_on_the_simulator(target, tmp_path):
    if target != "sim":
        pytest.skip("the simulator's refusal")
    kernels, _ = _batch_module(tmp_path, ["__nv_erfinv"], "ld_refused.py")
    with pytest.raises(SimulatorError, match="libdevice.erfinv has no exact host implementation"):
        cuda.jit(kernels[0])[1, 1](np.zeros(4), np.zeros(4, np.int64), np.array([0.5]), np.zeros(1, np.int64))


def test_numba_alias_imports_libdevice(tmp_path):
    # What numba-cuda's test file imports, and a call through `cuda.libdevice` and a name imported
    # from the module, on the simulator (a child process: the alias changes sys.modules for good).
    script = tmp_path / "alias_libdevice.py"
    script.write_text(
        "import cujit\n"
        "cujit.install_numba_alias()\n"
        "import numpy as np\n"
        "from numba import cuda\n"
        "from numba.cuda import types, libdevice, compile_ptx\n"
        "from numba.cuda.libdevicefuncs import functions, create_signature\n"
        "from numba.cuda.libdevice import cbrt\n"
        "assert isinstance(create_signature(*functions['__nv_frexp']).return_type, (types.Tuple, types.UniTuple))\n"
        "@cuda.jit\n"
        "def k(r, x):\n"
        "    r[0] = cuda.libdevice.sqrt(x[0]) + cbrt(x[0])\n"
        "r = np.zeros(1)\n"
        "k[1, 1](r, np.array([64.0]))\n"
        "print(r[0])\n")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "12.0"


def test_tuple_types_in_signatures(target):
    # types.Tuple and types.UniTuple (libdevice's result types) also declare kernel arguments.
    def k(t, a):
        a[0] = t[0] + t[1]

    kernel = cuda.jit(types.void(types.UniTuple(types.int32, 2), types.int32[:]))(k)
    a = np.zeros(1, np.int32)
    kernel[1, 1]((3, 4), a)
    assert a[0] == 7
