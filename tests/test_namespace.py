"""numba-cuda 0.30's namespace on cujit: every public name of ``numba.cuda`` a user can reach
resolves (through the numba alias too), the submodules users import exist, names with no meaning
in cujit yet raise NotImplementedError naming the feature, and the simulator answers as numba-cuda's
does (is_available, detect, select_device). Expected values were taken from numba-cuda 0.30.4
(NUMBA_ENABLE_CUDASIM=1 where it says so)."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import cujit
from cujit import cuda, types, errors

# The user-facing names of numba-cuda 0.30.4's `numba.cuda` (its dir() with and without the
# simulator, less modules it imports for itself such as os, np, warnings, and its internals:
# codegen, descriptor, cudadecl, lowering, ...).
NUMBA_CUDA_NAMES = """
Archive CUSource Cubin CudaSupportError Event Fatbin HAS_NUMBA In InOut LTOIR LinkableCode Object Out
PTXSource Reduce Stream activemask all_sync any_sync as_cuda_array atomic b1 ballot_sync bfloat16
blockDim blockIdx bool_ boolean brev byte c16 c8 cbrt cg char close clz compile
compile_for_current_device compile_ptx compile_ptx_for_current_device complex128 complex64 config
const current_context declare_device default_stream defer_cleanup detect device_array
device_array_like double eq_sync event event_elapsed_time external_stream f2 f4 f8 ffs float16
float32 float64 fma from_cuda_array_interface get_current_device gpus grid gridDim gridsize
guvectorize i1 i2 i4 i8 int16 int32 int64 int8 int_ intc intp is_available is_bfloat16_supported
is_cuda_array is_float16_supported is_fp8_supported is_supported_version jit laneid lanemask_lt
ldca ldcg ldcs ldcv ldlu legacy_default_stream libdevice list_devices literal_unroll local long_
longlong managed_array mapped mapped_array mapped_array_like match_all_sync match_any_sync
nanosleep open_ipc_array per_thread_default_stream pinned pinned_array pinned_array_like popc
profile_start profile_stop profiling reduce require_context select_device selp shared
shfl_down_sync shfl_sync shfl_up_sync shfl_xor_sync short size_t ssize_t stcg stcs stream stwb
stwt synchronize syncthreads syncthreads_and syncthreads_count syncthreads_or syncwarp
threadIdx threadfence threadfence_block threadfence_system to_device types u1 u2 u4 u8 uchar
uint uint16 uint32 uint64 uint8 uintc uintp ulong ulonglong ushort vectorize void warpsize
""".split()

# The submodule paths user code imports, under the numba alias.
SUBMODULES = [
    "numba.cuda.types", "numba.cuda.fp16", "numba.cuda.bf16", "numba.cuda._internal.cuda_bf16",
    "numba.cuda._internal.cuda_fp16", "numba.cuda._internal.cuda_fp8", "numba.cuda.core",
    "numba.cuda.core.errors", "numba.cuda.core.config",
    "numba.cuda.np", "numba.cuda.np.numpy_support", "numba.cuda.cudadrv", "numba.cuda.cudadrv.driver",
    "numba.cuda.cudadrv.devicearray", "numba.cuda.cudadrv.error", "numba.cuda.kernels",
    "numba.cuda.kernels.transpose", "numba.cuda.compiler", "numba.cuda.random", "numba.types",
    "numba.core.errors", "numba.core.config", "numba.np.numpy_support", "numba.cuda.typing",
    "numba.cuda.typing.typeof", "numba.cuda.misc.special", "numba.cuda.utils",
    "numba.cuda.cudadrv.linkable_code", "numba.cuda.args",
]

TOP_LEVEL = ["types", "typeof", "literal_unroll", "NumbaWarning", "NumbaPerformanceWarning",
             "carray", "farray", "cuda", "vectorize", "guvectorize", "jit", "njit", "float32"]


@pytest.mark.parametrize("name", NUMBA_CUDA_NAMES)
def test_numba_cuda_name_exists(name):
    assert hasattr(cuda, name), name


def test_alias_serves_submodules_and_top_level_names(tmp_path):
    # A child process: the alias changes sys.modules for good.
    script = tmp_path / "imports.py"
    script.write_text(textwrap.dedent("""
        import importlib, sys
        import cujit
        cujit.install_numba_alias()
        import numba
        from numba import cuda
        for m in %r:
            importlib.import_module(m)
        for n in %r:
            getattr(numba, n)
        from numba.cuda.core.errors import TypingError, NumbaPerformanceWarning
        from numba.cuda.cudadrv.driver import CudaAPIError, Device, Context, Stream
        from numba.cuda.cudadrv.devicearray import DeviceNDArray
        from numba.cuda.np.numpy_support import from_dtype, carray, farray
        from numba.cuda.kernels.transpose import transpose
        from numba.cuda.compiler import compile_ptx
        from numba.cuda.types import f2, i1, i2, i4, i8, u1, u2, u4, u8, float16, CPointer
        assert numba.cuda.types is numba.types and cuda.config is numba.core.config
        assert TypingError is cujit.errors.TypingError
        # A Numba module cujit lacks, under a package the alias serves: its ImportError names it.
        for missing in ("numba.np.ufunc", "numba.cuda.no_such_module"):
            try:
                importlib.import_module(missing)
            except ImportError as e:
                assert "no module " + repr(missing) in str(e), str(e)
            else:
                raise AssertionError(missing + " imported")
        print("ok")
    """ % (SUBMODULES, TOP_LEVEL)))
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(cujit.__file__))))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["ok"]


def test_scalar_type_aliases_are_the_same_objects():
    assert (types.i1, types.i2, types.i4, types.i8) == (types.int8, types.int16, types.int32, types.int64)
    assert (types.u1, types.u2, types.u4, types.u8) == (types.uint8, types.uint16, types.uint32, types.uint64)
    assert (types.f4, types.f8, types.b1) == (types.float32, types.float64, types.boolean)
    assert types.intc is types.int32 and types.uintc is types.uint32
    assert types.size_t is types.uint64 and types.ssize_t is types.int64
    assert cuda.float32 is types.float32 and cuda.f8 is types.float64
    assert types.from_dtype(np.float16) is types.float16 and types.f2 is types.float16


def test_array_type_constructor_matches_the_slice_spelling():
    # numba: types.Array(types.float32, 2, 'C') == types.float32[:, ::1]
    assert types.Array(types.float32, 2, "C") == types.float32[:, ::1]
    assert types.Array(types.int32, 1, "A") == types.int32[:]


def test_typeof_arrays_and_scalars():
    a = np.zeros((2, 3), np.float32)
    assert cujit.typeof(a) == types.float32[:, ::1]
    assert cujit.typeof(a.T) == types.float32[::1, :]
    assert cujit.typeof(a[:, ::2]) == types.float32[:, :]
    assert cujit.typeof(np.int16(3)) is types.int16
    assert cujit.typeof(1) is types.int64 and cujit.typeof(1.5) is types.float64
    assert cujit.typeof(True) is types.boolean
    with pytest.raises(NotImplementedError, match="typeof does not know values of type dict"):
        cujit.typeof({})


@pytest.mark.parametrize("call, feature", [
    (lambda: types.CPointer(types.int32), "types.CPointer"),
    (lambda: cujit.carray(0, 3), "carray"),
    (lambda: cuda.cudadrv.driver.driver.cuMemAlloc, "driver.cuMemAlloc"),
])
def test_names_without_meaning_in_cujit_say_so(call, feature):
    with pytest.raises(NotImplementedError, match=feature):
        call()


def test_config_has_numbas_settings_with_numbas_defaults():
    c = cuda.config
    # Numba's defaults are (1, 1, 0) (tests/test_warnings.py checks them in a fresh process); the
    # suite's conftest turns the two warnings off through NUMBA_CUDA_* variables, as numba-cuda's tests do.
    assert (c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS) == (0, 0, 0)
    assert c.CUDA_DEFAULT_PTX_CC == (7, 5) and c.CUDA_ENABLE_NRT is False
    assert c.ENABLE_CUDASIM == cujit.config.ENABLE_CUDASIM


def test_warning_classes():
    assert issubclass(errors.NumbaPerformanceWarning, errors.NumbaWarning)
    assert issubclass(errors.NumbaDeprecationWarning, DeprecationWarning)
    assert cujit.NumbaWarning is errors.NumbaWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("slow", errors.NumbaPerformanceWarning)
    assert caught[0].category is errors.NumbaPerformanceWarning


def test_simulator_answers_as_numba_cudas(capsys):
    was = cuda.simulator_enabled()
    cuda.enable_simulator()
    try:
        # numba-cuda's simulator: is_available() True, detect() lists one "SIMULATOR" device.
        assert cuda.is_available() is True
        assert cuda.detect() is True
        assert "SIMULATOR" in capsys.readouterr().out
        assert cuda.select_device(0).name == "SIMULATOR"
        assert cuda.get_current_device().id == 0
    finally:
        cuda.enable_simulator(was)


def _ptx_kernel(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i


def test_compile_ptx_gives_a_kernel_entry_for_the_requested_cc():
    ptx, resty = cuda.compile_ptx(_ptx_kernel, "void(float32[:])", cc=(8, 0))
    assert resty == types.void
    assert ".target sm_80" in ptx and ".visible .entry" in ptx
    ptx, _ = cuda.compile_ptx(_ptx_kernel, (types.float32[:],))
    assert ".target sm_75" in ptx  # config.CUDA_DEFAULT_PTX_CC
    with pytest.raises(TypeError, match="CUDA kernel must have void return type"):
        cuda.compile_ptx(_ptx_kernel, "int32(float32[:])")


def test_cuda_vectorize_and_guvectorize_target_the_gpu(target):
    @cuda.vectorize(["float32(float32, float32)"])
    def add(x, y):
        return x + y

    @cuda.guvectorize(["void(float32[:], float32[:])"], "(n)->()")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s

    a = np.arange(6, dtype=np.float32)
    assert isinstance(add, _core_cuda_ufunc())
    assert add(a, a).tolist() == (2 * a).tolist()
    assert total(a.reshape(2, 3)).tolist() == [3.0, 12.0]
    with pytest.raises(ValueError, match="'cuda' target only"):
        cuda.vectorize(["float32(float32)"], target="cpu")


def test_cuda_vectorize_takes_one_signature_string(target):
    # numba-cuda's test_enums: cuda.vectorize("int64(int64)") (each character was a signature).
    @cuda.vectorize("int64(int64)")
    def twice(x):
        return 2 * x

    assert twice(np.arange(3, dtype=np.int64)).tolist() == [0, 2, 4]


def _core_cuda_ufunc():
    from cujit.ufunc import CUDAUFunc
    return CUDAUFunc


def test_transpose_kernel(target):
    from cujit.cuda.kernels.transpose import transpose
    h = np.arange(35, dtype=np.float64).reshape(5, 7)
    d = cuda.to_device(h)
    assert (transpose(d).copy_to_host() == h.T).all()
    out = cuda.device_array((7, 5), dtype=np.float64)
    assert transpose(d, out) is out and (out.copy_to_host() == h.T).all()
    with pytest.raises(ValueError, match="b has shape"):
        transpose(d, cuda.device_array((5, 7), dtype=np.float64))


def test_from_cuda_array_interface_views_the_same_memory(target):
    if target == "sim":
        pytest.skip("simulator device arrays have no __cuda_array_interface__ (host memory)")
    d = cuda.to_device(np.arange(4, dtype=np.int32))
    v = cuda.from_cuda_array_interface(d.__cuda_array_interface__, owner=d)
    assert v.__cuda_array_interface__["data"][0] == d.__cuda_array_interface__["data"][0]
    assert v.copy_to_host().tolist() == [0, 1, 2, 3]


def test_defer_cleanup_runs_its_block():
    with cuda.defer_cleanup():
        x = 1
    assert x == 1


def test_literal_unroll_outside_compiled_code_returns_its_argument():
    t = (1, 2.0)
    assert cujit.literal_unroll(t) is t


def test_type_domains_are_numbas_sets():
    assert types.signed_domain == {types.int8, types.int16, types.int32, types.int64}
    assert types.uint32 in types.unsigned_domain and types.uint32 in types.integer_domain
    assert types.real_domain == {types.float32, types.float64}
    assert types.complex64 in types.number_domain and types.int8 not in types.real_domain


def test_auto_device_refuses_a_non_contiguous_host_array(target):
    from cujit.cuda.cudadrv import devicearray
    x = np.arange(10, dtype=np.float64)
    with pytest.raises(ValueError, match="non-contiguous buffer"):
        devicearray.auto_device(x[:-1:2])
    assert devicearray.is_contiguous(x) and not devicearray.is_contiguous(x[::2])
    d, converted = devicearray.auto_device(x)
    assert converted and d.copy_to_host().tolist() == x.tolist()
    assert devicearray.auto_device(d) == (d, False)


def test_array_core_cuts_broadcast_dimensions():
    from cujit.cuda.cudadrv import devicearray
    b = np.broadcast_to(np.arange(3.0), (4, 3))
    core = devicearray.array_core(b)
    assert core.shape == (1, 3) and core.tolist() == [[0.0, 1.0, 2.0]]
