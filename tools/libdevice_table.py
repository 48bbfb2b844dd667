"""Writes src/compiler/libdevice.def, cujit's one table of libdevice functions.

The facts come from libdevice itself: the name, return type and parameters (name, LLVM type) of
each `__nv_*` function, read from the disassembled bitcode that the CUDA toolkit ships
(`llvm-dis /usr/local/cuda/nvvm/libdevice/libdevice.10.bc`). Types are written with their LLVM
widths and signed (i32 -> int32), as Numba types them; a pointer parameter is an output that
becomes an extra member of the Python-level tuple result.

The table keeps the functions the libdevice user guide documents; the bitcode also holds a few
undocumented or pointer-to-array ones (EXCLUDED), left out.

The last column is the simulator's implementation (a C++ function body over a0, a1, ...), or
"" where the host has no exact equivalent: such a function is refused on the simulator.

Usage: python tools/libdevice_table.py [libdevice.10.bc] > src/compiler/libdevice.def
"""
import re
import subprocess
import sys

EXCLUDED = {
    # undocumented in the libdevice user guide, or new since it
    "cyl_bessel_i0", "cyl_bessel_i0f", "cyl_bessel_i1", "cyl_bessel_i1f", "dsub_rd", "dsub_rn",
    "dsub_ru", "dsub_rz", "fast_tanhf", "float_as_uint", "uint_as_float", "fmaf_ieee_rd",
    "fmaf_ieee_rn", "fmaf_ieee_ru", "fmaf_ieee_rz", "rcp64h", "rhypot", "rhypotf",
    "norm3d", "norm3df", "norm4d", "norm4df",
    # take a string or an array through a pointer: no Python-level meaning as an output
    "nan", "nanf", "norm", "normf", "rnorm", "rnorm3d", "rnorm3df", "rnorm4d", "rnorm4df", "rnormf",
}

LLVM_TYPES = {"float": "float32", "double": "float64", "i32": "int32", "i64": "int64",
              "i16": "int16", "void": "void"}
MODES = {"rn": "FE_TONEAREST", "rz": "FE_TOWARDZERO", "rd": "FE_DOWNWARD", "ru": "FE_UPWARD"}

# Functions of the C/C++ library with the same meaning (the float variant ends in f).
STD = ("acos acosh asin asinh atan atanh atan2 cbrt ceil copysign cos cosh erf erfc exp exp2 expm1 fabs "
       "fdim floor fmax fmin fmod hypot log log10 log1p log2 logb nearbyint nextafter pow remainder "
       "rint round sin sinh sqrt tan tanh tgamma lgamma trunc fma ilogb ldexp scalbn "
       "frexp modf remquo").split()
# GNU/POSIX libm functions (float variants with the suffix f).
LIBM = "exp10 j0 j1 jn y0 y1 yn".split()
# No host function computes these exactly: refused on the simulator.
NO_HOST = {"erfinv", "erfinvf", "erfcinv", "erfcinvf", "normcdfinv", "normcdfinvf", "erfcx", "erfcxf"}
# GPU approximations (ex2.approx and friends); the simulator gives the accurate function, which
# is inside each one's documented error bound.
FAST = {"fast_cosf": "std::cos(a0)", "fast_sinf": "std::sin(a0)", "fast_tanf": "std::tan(a0)",
        "fast_expf": "std::exp(a0)", "fast_exp10f": "::exp10f(a0)", "fast_logf": "std::log(a0)",
        "fast_log2f": "std::log2(a0)", "fast_log10f": "std::log10(a0)",
        "fast_powf": "std::pow(a0, a1)"}

INT_OPS = {
    "abs": "return (int32_t)(a0 < 0 ? 0u - (uint32_t)a0 : (uint32_t)a0);",
    "llabs": "return (int64_t)(a0 < 0 ? 0ull - (uint64_t)a0 : (uint64_t)a0);",
    "min": "return a0 < a1 ? a0 : a1;", "max": "return a0 > a1 ? a0 : a1;",
    "llmin": "return a0 < a1 ? a0 : a1;", "llmax": "return a0 > a1 ? a0 : a1;",
    "umin": "return (int32_t)std::min((uint32_t)a0, (uint32_t)a1);",
    "umax": "return (int32_t)std::max((uint32_t)a0, (uint32_t)a1);",
    "ullmin": "return (int64_t)std::min((uint64_t)a0, (uint64_t)a1);",
    "ullmax": "return (int64_t)std::max((uint64_t)a0, (uint64_t)a1);",
    "mulhi": "return (int32_t)(((int64_t)a0 * (int64_t)a1) >> 32);",
    "umulhi": "return (int32_t)(((uint64_t)(uint32_t)a0 * (uint64_t)(uint32_t)a1) >> 32);",
    "mul64hi": "return (int64_t)(((__int128)a0 * (__int128)a1) >> 64);",
    "umul64hi": "return (int64_t)(((unsigned __int128)(uint64_t)a0 * (unsigned __int128)(uint64_t)a1) >> 64);",
    "mul24": "return (int32_t)((uint32_t)cj_ld::sext24(a0) * (uint32_t)cj_ld::sext24(a1));",
    "umul24": "return (int32_t)(((uint32_t)a0 & 0xffffffu) * ((uint32_t)a1 & 0xffffffu));",
    "brev": "return (int32_t)cj_ld::brev32((uint32_t)a0);",
    "brevll": "return (int64_t)(((uint64_t)cj_ld::brev32((uint32_t)a0) << 32) | cj_ld::brev32((uint32_t)((uint64_t)a0 >> 32)));",
    "clz": "return a0 == 0 ? 32 : __builtin_clz((uint32_t)a0);",
    "clzll": "return a0 == 0 ? 64 : __builtin_clzll((uint64_t)a0);",
    "popc": "return __builtin_popcount((uint32_t)a0);",
    "popcll": "return __builtin_popcountll((uint64_t)a0);",
    "ffs": "return __builtin_ffs(a0);", "ffsll": "return __builtin_ffsll(a0);",
    "byte_perm": "return (int32_t)cj_ld::byte_perm((uint32_t)a0, (uint32_t)a1, (uint32_t)a2);",
    # |x - y| + z, unsigned (z is an unsigned int in CUDA's __sad)
    "sad": "return (int32_t)((uint32_t)(a0 > a1 ? (int64_t)a0 - a1 : (int64_t)a1 - a0) + (uint32_t)a2);",
    "usad": "uint32_t x = (uint32_t)a0, y = (uint32_t)a1; return (int32_t)((x > y ? x - y : y - x) + (uint32_t)a2);",
    "hadd": "return (int32_t)(((int64_t)a0 + a1) >> 1);",
    "rhadd": "return (int32_t)(((int64_t)a0 + a1 + 1) >> 1);",
    "uhadd": "return (int32_t)(((uint64_t)(uint32_t)a0 + (uint32_t)a1) >> 1);",
    "urhadd": "return (int32_t)(((uint64_t)(uint32_t)a0 + (uint32_t)a1 + 1) >> 1);",
    # libdevice: 0 or 1 (a comparison, or the sign bit shifted down)
    "isnanf": "return a0 != a0;", "isnand": "return a0 != a0;",
    "isinff": "return std::isinf(a0) ? 1 : 0;", "isinfd": "return std::isinf(a0) ? 1 : 0;",
    "finitef": "return std::isfinite(a0) ? 1 : 0;", "isfinited": "return std::isfinite(a0) ? 1 : 0;",
    "signbitf": "return std::signbit(a0) ? 1 : 0;", "signbitd": "return std::signbit(a0) ? 1 : 0;",
    "saturatef": "return a0 > 0.0f ? (a0 < 1.0f ? a0 : 1.0f) : 0.0f;",  # NaN -> 0
    "float_as_int": "return cj_ld::bits<int32_t>(a0);",
    "int_as_float": "return cj_ld::bits<float>(a0);",
    "double_as_longlong": "return cj_ld::bits<int64_t>(a0);",
    "longlong_as_double": "return cj_ld::bits<double>(a0);",
    "double2hiint": "return (int32_t)(cj_ld::bits<uint64_t>(a0) >> 32);",
    "double2loint": "return (int32_t)cj_ld::bits<uint64_t>(a0);",
    "hiloint2double": "return cj_ld::bits<double>(((uint64_t)(uint32_t)a0 << 32) | (uint32_t)a1);",
    "float2half_rn": "return (int16_t)cj_ld::bits<uint16_t>((_Float16)a0);",
    "half2float": "return (float)cj_ld::bits<_Float16>((uint16_t)a0);",
    "rsqrt": "return 1.0 / std::sqrt(a0);", "rsqrtf": "return (float)(1.0 / std::sqrt((double)a0));",
    "frsqrt_rn": "return (float)(1.0 / std::sqrt((double)a0));",
    "rcbrt": "return 1.0 / std::cbrt(a0);", "rcbrtf": "return (float)(1.0 / std::cbrt((double)a0));",
    "powi": "return std::pow(a0, (double)a1);", "powif": "return std::pow(a0, (float)a1);",
    "sinpi": "return cj_ld::sinpi(a0);", "sinpif": "return (float)cj_ld::sinpi((double)a0);",
    "cospi": "return cj_ld::cospi(a0);", "cospif": "return (float)cj_ld::cospi((double)a0);",
    "sincospi": "*a1 = cj_ld::sinpi(a0); *a2 = cj_ld::cospi(a0);",
    "sincospif": "*a1 = (float)cj_ld::sinpi((double)a0); *a2 = (float)cj_ld::cospi((double)a0);",
    "sincos": "*a1 = std::sin(a0); *a2 = std::cos(a0);",
    "sincosf": "*a1 = std::sin(a0); *a2 = std::cos(a0);",
    "fast_sincosf": "*a1 = std::sin(a0); *a2 = std::cos(a0);",
    "normcdf": "return 0.5 * std::erfc(-a0 * 0.70710678118654752440);",
    "normcdff": "return 0.5f * std::erfc(-a0 * 0.70710678118654752440f);",
    # __fdividef: x / y, and 0 for 2**126 < |y| < 2**128 (CUDA's documented behaviour)
    "fast_fdividef": "float ay = std::fabs(a1); if (ay > 0x1p126f && ay < 0x1p128f) return std::isinf(a0) ? NAN : 0.0f * a0; return a0 / a1;",
    "int2double_rn": "return (double)a0;",
    # cvt's saturation, where the C library's result for a value out of range is unspecified
    "llrint": "return cj_ld::to_int<int64_t>(FE_TONEAREST, a0);",
    "llrintf": "return cj_ld::to_int<int64_t>(FE_TONEAREST, a0);",
    "llround": "return cj_ld::sat<int64_t>(std::round(a0));",
    "llroundf": "return cj_ld::sat<int64_t>(std::round(a0));",
    "uint2double_rn": "return (double)(uint32_t)a0;",
}


def host_body(name, params):
    if name in NO_HOST:
        return ""
    if name in INT_OPS:
        return INT_OPS[name]
    if name in FAST:
        return "return " + FAST[name] + ";"
    m = re.fullmatch(r"([fd])(add|sub|mul|div)_(r[nzdu])", name)
    if m:
        return "return cj_ld::%s(%s, a0, a1);" % (m.group(2), MODES[m.group(3)])
    m = re.fullmatch(r"([fd])(rcp|sqrt)_(r[nzdu])", name)
    if m:
        return "return cj_ld::%s(%s, a0);" % (m.group(2), MODES[m.group(3)])
    m = re.fullmatch(r"fmaf?_(r[nzdu])", name)
    if m:
        return "return cj_ld::fma(%s, a0, a1, a2);" % MODES[m.group(1)]
    m = re.fullmatch(r"double2float_(r[nzdu])", name)
    if m:
        return "return cj_ld::cvt<float>(%s, a0);" % MODES[m.group(1)]
    m = re.fullmatch(r"(float|double)2(int|uint|ll|ull)_(r[nzdu])", name)
    if m:
        c = {"int": "int32_t", "uint": "uint32_t", "ll": "int64_t", "ull": "uint64_t"}[m.group(2)]
        s = {"int": "int32_t", "uint": "int32_t", "ll": "int64_t", "ull": "int64_t"}[m.group(2)]
        return "return (%s)cj_ld::to_int<%s>(%s, a0);" % (s, c, MODES[m.group(3)])
    m = re.fullmatch(r"(int|uint|ll|ull)2(float|double)_(r[nzdu])", name)
    if m:
        c = {"int": "int32_t", "uint": "uint32_t", "ll": "int64_t", "ull": "uint64_t"}[m.group(1)]
        f = {"float": "float", "double": "double"}[m.group(2)]
        return "return cj_ld::cvt<%s>(%s, (%s)a0);" % (f, MODES[m.group(3)], c)
    base = name[:-1] if name.endswith("f") and name[:-1] in STD + LIBM else name
    if base in STD:
        args = ", ".join("a%d" % i for i in range(len(params)))
        return "return std::%s(%s);" % (base, args)
    if base in LIBM:
        args = ", ".join("a%d" % i for i in range(len(params)))
        return "return ::%s(%s);" % (name, args)
    raise SystemExit("no host implementation rule for " + name)


def main():
    bc = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
    ll = subprocess.run(["llvm-dis", bc, "-o", "-"], check=True, capture_output=True, text=True).stdout
    rows = []
    for m in re.finditer(r"^define (?:zeroext )?(\w+) @__nv_(\w+)\(([^)]*)\)", ll, re.M):
        ret, name, params = m.groups()
        if name in EXCLUDED:
            continue
        ps = []
        for p in filter(None, (s.strip() for s in params.split(","))):
            pm = re.fullmatch(r"(\w+)(\*?)(?: zeroext)? %(\w+)", p)
            if not pm:
                raise SystemExit("unparsed parameter %r of %s" % (p, name))
            ps.append("%s%s %s" % (LLVM_TYPES[pm.group(1)], pm.group(2), pm.group(3)))
        rows.append((name, LLVM_TYPES[ret], ", ".join(ps), host_body(name, ps)))
    print("// Generated by tools/libdevice_table.py from libdevice's bitcode; do not edit by hand.")
    print("// LIBDEVICE(name without __nv_, return type, \"type[*] name, ...\", simulator body or \"\")")
    for name, ret, ps, body in sorted(rows):
        print('LIBDEVICE(%s, "%s", "%s", "%s")' % (name, ret, ps, body.replace('"', '\\"')))
    print("// %d functions" % len(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
