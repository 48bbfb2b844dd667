"""cuda.compile / compile_ptx of device functions on their own: (PTX, return type), with an
extern "C" entry in relocatable PTX (numba-cuda's cudapy/test_compiler.py: the C ABI's name from
abi_info, the return type as Numba infers it). The PTX is cujit's; only its interface is pinned."""
import math
import re

import pytest

from cujit import cuda, types


def add(x, y):
    return x + y


def f_module(x, y):
    return x + y


def test_compile_device_c_abi_named_by_abi_info():
    ptx, resty = cuda.compile(add, "float32(float32, float32)", abi_info={"abi_name": "my_add"})
    assert resty == types.float32
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) my_add\(", ptx)
    assert ".target sm_75" in ptx


def test_compile_ptx_device_infers_the_return_type_as_numba():
    ptx, resty = cuda.compile_ptx(add, (types.int32, types.int32), device=True, cc=(8, 0))
    assert resty == types.int64  # int32 + int32 is int64 in Numba
    assert ".target sm_80" in ptx
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) add\(", ptx)  # the status word


def test_compile_device_c_abi_default_name_is_the_python_name():
    ptx, resty = cuda.compile(f_module, "float64(float64, float64)")
    assert resty == types.float64
    assert re.search(r"\.visible \.func\s+\(\.param \.b64 func_retval0\) f_module\(", ptx)


def test_compile_kernel_returns_void():
    def k(a):
        a[0] = 1

    ptx, resty = cuda.compile(k, "void(float32[:])", device=False, abi="numba")
    assert resty == types.void and ".visible .entry" in ptx
    # compile()'s default ABI is C, which numba-cuda refuses for kernels (in its words)
    with pytest.raises(NotImplementedError, match="^The C ABI is not supported for kernels$"):
        cuda.compile(k, "void(float32[:])", device=False)


def test_compile_refuses_what_it_cannot_do():
    with pytest.raises(NotImplementedError, match="^Unsupported output type: illegal$"):
        cuda.compile(add, "float32(float32, float32)", output="illegal")
    with pytest.raises(NotImplementedError, match="Unsupported ABI"):
        cuda.compile(add, "float32(float32, float32)", abi="fastcall")
    with pytest.raises(ValueError, match="C identifier"):
        cuda.compile(add, "float32(float32, float32)", abi_info={"abi_name": "no such"})
    with pytest.raises(ValueError, match="^Can only designate forced inlining in LTO-IR$"):
        cuda.compile(add, "float32(float32, float32)", forceinline=True)


def test_kernel_returning_a_value_is_numbas_type_error():
    def k(x, y):
        return x[0] + y[0]

    with pytest.raises(TypeError, match="^CUDA kernel must have void return type.$"):
        cuda.compile_ptx(k, (types.uint32[::1], types.uint32[::1]))


LTOIR_MAGIC = 0x7F4E43ED  # the first four bytes of NVRTC's LTO-IR (numba-cuda's test checks them)


def test_compile_to_ltoir_with_and_without_forceinline():
    def set_zero(a):
        a[0] = 0

    plain, resty = cuda.compile(set_zero, (types.float32[::1],), output="ltoir")
    assert resty == types.none
    assert isinstance(plain, bytes) and int.from_bytes(plain[:4], "little") == LTOIR_MAGIC
    inlined, _ = cuda.compile(set_zero, (types.float32[::1],), output="ltoir", forceinline=True)
    assert int.from_bytes(inlined[:4], "little") == LTOIR_MAGIC and inlined != plain
    codes, resty = cuda.compile_all(f_module, types.int32(types.int32, types.int32), output="ltoir")
    assert len(codes) == 1 and int.from_bytes(codes[0][:4], "little") == LTOIR_MAGIC


def test_fastmath_gives_fast_instructions():
    # numba-cuda's meaning: flush to zero, approximate division and square root (fma either way)
    def f(x, y, z, d):
        return math.sqrt((x * y + z) / d)

    args = (types.float32,) * 4
    ptx, _ = cuda.compile_ptx(f, args, device=True)
    assert "fma.rn.f32" in ptx and "div.rn.f32" in ptx and "sqrt.rn.f32" in ptx
    ptx, _ = cuda.compile_ptx(f, args, device=True, fastmath=True)
    assert "fma.rn.ftz.f32" in ptx and "div.approx.ftz.f32" in ptx and "sqrt.approx.ftz.f32" in ptx


@pytest.mark.parametrize("op, fast, precise_lacks", [
    (math.cos, ["cos.approx.ftz.f32 "], "cos.approx.ftz.f32 "),
    (math.tan, ["sin.approx.ftz.f32 ", "cos.approx.ftz.f32 ", "div.approx.ftz.f32 "], "sin.approx"),
    (math.tanh, ["tanh.approx.f32 "], "tanh.approx.f32 "),
    (math.exp2, ["ex2.approx.ftz.f32 "], "ex2.approx.ftz.f32 "),
    (math.log, ["lg2.approx.ftz.f32 ", "0f3F317218"], "lg2.approx.ftz.f32 "),
    (math.log10, ["lg2.approx.ftz.f32 ", "0f3E9A209B"], "lg2.approx.ftz.f32 "),
])
def test_fastmath_transcendentals_in_kernels(op, fast, precise_lacks):
    def k(r, x):
        r[0] = op(x)

    sig = (types.float32[::1], types.float32)
    fastptx, _ = cuda.compile_ptx(k, sig, fastmath=True, cc=(9, 0))
    precptx, _ = cuda.compile_ptx(k, sig, cc=(9, 0))
    assert all(s in fastptx for s in fast)
    assert precise_lacks not in precptx


def _empty():
    pass


def test_debug_and_lineinfo_name_the_users_file():
    for device in (False, True):
        ptx, _ = cuda.compile_ptx(_empty, (), device=device, debug=True, opt=False)
        assert re.search(r"\.section\s+\.debug_info", ptx)
        assert re.search(r'\.file.*test_compile_ptx.py"', ptx)
        ptx, _ = cuda.compile_ptx(_empty, (), device=device, lineinfo=True)
        assert re.search(r'\.file.*test_compile_ptx.py"', ptx)


@pytest.mark.parametrize("bounds, want, lacks", [
    (128, [r"\.maxntid\s+128"], [".minnctapersm", ".maxclusterrank"]),
    ((128,), [r"\.maxntid\s+128"], [".minnctapersm", ".maxclusterrank"]),
    ((128, 2), [r"\.maxntid\s+128", r"\.minnctapersm\s+2"], [".maxclusterrank"]),
    ((128, 2, 4), [r"\.maxntid\s+128", r"\.minnctapersm\s+2", r"\.maxclusterrank\s+4"], []),
])
def test_launch_bounds(bounds, want, lacks):
    ptx, resty = cuda.compile_ptx(_empty, "void()", launch_bounds=bounds, cc=(9, 0))
    assert resty == types.void
    assert all(re.search(w, ptx) for w in want) and not any(x in ptx for x in lacks)


def test_too_many_launch_bounds():
    msg = r"^Got 4 launch bounds: \(128, 2, 4, 8\)\. A maximum of three are supported"
    with pytest.raises(ValueError, match=msg):
        cuda.compile_ptx(_empty, "void()", launch_bounds=(128, 2, 4, 8))
    with pytest.raises(ValueError, match=msg):
        cuda.jit("void()", launch_bounds=(128, 2, 4, 8))(_empty)


def test_arch_specific_cc_and_lambda_names():
    ptx, _ = cuda.compile_ptx(lambda: None, (), cc=(9, 0, "a"))
    assert ".target sm_90a" in ptx
    # a lambda's C name when abi_info gives none
    ptx, _ = cuda.compile_ptx(lambda x: x, types.int32(types.int32), device=True, abi="c")
    assert re.search(r"\.visible\s+\.func\s+\(\.param\s+\.b32\s+func_retval0\)\s+_lambda_\(", ptx)
    ptx, _ = cuda.compile_ptx(lambda x: x, types.int32(types.int32), device=True, abi="c",
                              abi_info={"abi_name": "blah"})
    assert re.search(r"func_retval0\)\s+blah\(", ptx)


def test_nvrtc_module_answers_numbas_questions():
    from cujit.cuda.cudadrv import nvrtc
    ccs = nvrtc.get_supported_ccs()
    assert ccs == sorted(ccs) and (9, 0) in ccs
    assert nvrtc.find_closest_arch((9, 0)) == (9, 0)
    assert nvrtc.find_closest_arch((99, 0)) == ccs[-1]
    with pytest.raises(nvrtc.CCSupportError, match="GPU compute capability 1.0 is not supported"):
        nvrtc.find_closest_arch((1, 0))
    assert nvrtc._get_nvrtc_version() >= (12, 0)
