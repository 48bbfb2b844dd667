"""The kernel dispatcher's API beyond launching: forall, specialize/specialized, extensions and the
copy hints In/Out/InOut, overloads and the inspect_* methods, the resource queries, and the
options that reach NVRTC (lineinfo, max_registers, opt, fastmath). Expected values are numba-cuda
0.30's (its simulator where it has the method)."""
import io

import numpy as np
import pytest

import cujit
from cujit import cuda, float32, int64, void
from cujit.cuda.compiler import nvrtc_flags


@cuda.jit
def add_one(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1


@cuda.jit("void(float32, float32[:], float32[:])")
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]


def test_forall(target):
    arr = np.arange(11)
    add_one.forall(arr.size)(arr)
    np.testing.assert_array_equal(arr, np.arange(11) + 1)
    big = np.zeros(3000, dtype=np.int32)
    add_one.forall(big.size, tpb=64)(big)  # 47 blocks of 64
    assert (big == 1).all()
    x = np.arange(13, dtype=np.float32)
    y = np.arange(13, dtype=np.float32)
    axpy.forall(y.size)(1.5, x, y)
    np.testing.assert_allclose(y, 1.5 * np.arange(13) + np.arange(13))


def test_forall_without_work_and_negative(target):
    arr = np.arange(11)
    add_one.forall(0)(arr)  # no launch (a grid of 0 blocks would be an error)
    np.testing.assert_array_equal(arr, np.arange(11))
    with pytest.raises(ValueError, match="Can't create ForAll with negative task count: -1"):
        add_one.forall(-1)


def test_specialize(target):
    @cuda.jit
    def k(x, v):
        x[0] = v

    a = np.zeros(1, dtype=np.float32)
    s = k.specialize(a, 2.5)
    assert s.specialized and not k.specialized
    assert s.signatures == ["(array(float32, 1d, C), float64)"]
    assert k.specialize(a, 7.0) is s  # one specialisation per argument types
    s[1, 1](a, 2.5)
    assert a[0] == 2.5
    with pytest.raises(TypeError, match="No matching definition"):
        s[1, 1](np.zeros(1, dtype=np.int32), 1.0)  # a specialised kernel compiles nothing else
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        s.specialize(a, 1.0)
    d = cuda.to_device(np.zeros(4, dtype=np.int64))
    assert cujit.typeof(d) == cujit.int64[::1]  # also a simulator device array (no CAI there)
    sd = k.specialize(d, 3)
    assert sd.signatures == ["(array(int64, 1d, C), int64)"]
    assert k.specialize(cujit.int64[::1], int64) is sd  # types are taken as they are
    assert len(k.specializations) == 2
    # One signature given alone makes a specialized kernel, a list of them does not (numba-cuda).
    assert axpy.specialized
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        axpy.specialize(float32[::1])
    assert not cuda.jit(["void(float32[::1])"])(add_one.py_func).specialized


class Recorder:
    """A kernel extension: sees each argument, doubles scalar floats, and records a post-call."""

    def __init__(self, log):
        self.log = log

    def prepare_args(self, ty, val, stream=0, retr=None):
        self.log.append(("prepare", str(ty)))
        if isinstance(val, float):
            val = val * 2
        retr.append(lambda: self.log.append(("after", None)))
        return ty, val


def test_extensions(target):
    log = []

    @cuda.jit(extensions=[Recorder(log)])
    def k(x, v):
        x[0] = v

    a = np.zeros(1)
    assert len(k.extensions) == 1
    k[1, 1](a, 1.25)
    assert a[0] == 2.5
    assert log == [("prepare", "float64[::1]"), ("prepare", "float64"), ("after", None), ("after", None)]
    # The list is changed in place (numba-cuda's tests append to it); order: last one first.
    order = []

    class Tag:
        def __init__(self, name):
            self.name = name

        def prepare_args(self, ty, val, stream=0, retr=None):
            order.append(self.name)
            return ty, val

    k.extensions.append(Tag("second"))
    k.extensions.append(Tag("third"))
    k[1, 1](a, 1.0)
    assert order == ["third", "second"] * 2 and a[0] == 2.0  # each argument, last extension first
    del k.extensions[:]
    k[1, 1](a, 1.0)  # no extensions: the fast path again
    assert a[0] == 1.0


def test_copy_hints(target):
    @cuda.jit
    def set_three(arr):
        arr[0] = 3

    @cuda.jit
    def copy(src, dst):
        dst[0] = src[0] + 1

    host = np.zeros(1, dtype=np.int64)
    set_three[1, 1](cuda.In(host))
    assert host[0] == 0  # copied in, not back
    set_three[1, 1](cuda.InOut(host))
    assert host[0] == 3
    src, dst = np.array([41], dtype=np.int64), np.zeros(1, dtype=np.int64)
    copy[1, 1](cuda.In(src), cuda.Out(dst))
    assert dst[0] == 42
    d = cuda.to_device(np.zeros(1, dtype=np.int64))
    set_three[1, 1](cuda.Out(d))  # a device array is passed as it is
    assert d.copy_to_host()[0] == 3
    from cujit.cuda.args import wrap_arg
    assert isinstance(wrap_arg(host), cuda.InOut) and isinstance(wrap_arg(host, default=cuda.In), cuda.In)


def test_overloads_and_inspect(target):
    @cuda.jit
    def k(x, n):
        i = cuda.grid(1)
        if i < n:
            x[i] = i * 2

    a = np.zeros(4, dtype=np.float32)
    k[1, 4](a, 4)
    assert list(k.overloads) == [(cujit.float32[::1], cujit.int64)]
    assert (cujit.float32[::1], cujit.int64) in k.overloads
    llvm = k.inspect_llvm()
    (text,) = llvm.values()
    assert text.startswith("// cujit has no LLVM IR: inspect_llvm() returns the CUDA C++")
    assert "cj_kernel_k" in text and k.inspect_llvm((cujit.float32[::1], cujit.int64)) == text
    out = io.StringIO()
    k.inspect_types(file=out)
    assert "k (array(float32, 1d, C), int64)" in out.getvalue()
    assert "i = cuda.grid(1)" in out.getvalue()
    with pytest.raises(KeyError, match="no specialisation"):
        k.inspect_llvm((cujit.int32,))


def test_resource_queries_on_the_simulator():
    # numba-cuda's simulator kernels have no such methods (AttributeError); cujit's say why.
    cuda.enable_simulator(True)
    a = np.zeros(4, dtype=np.float32)
    add_one[1, 4](a)
    for call in (add_one.get_regs_per_thread, add_one.get_shared_mem_per_block, add_one.inspect_asm,
                 add_one.inspect_sass):
        with pytest.raises(AttributeError, match="simulator"):
            call()


@pytest.mark.gpu
def test_resource_queries_on_the_gpu():
    cuda.enable_simulator(False)
    try:
        @cuda.jit
        def k(x):
            s = cuda.shared.array(128, dtype=float32)
            i = cuda.threadIdx.x
            s[i] = x[i]
            cuda.syncthreads()
            x[i] = s[127 - i]

        a = cuda.to_device(np.arange(128, dtype=np.float32))
        k[1, 128](a)
        regs = k.get_regs_per_thread()
        (sig,) = regs
        assert isinstance(regs[sig], int) and regs[sig] > 0
        assert k.get_regs_per_thread(void(float32[::1])) == regs[sig]
        assert k.get_shared_mem_per_block()[sig] == 512
        s = k.specialize(a)
        assert isinstance(s.get_regs_per_thread(), int)  # a specialized kernel: the value itself
        ptx = k.inspect_asm(sig)
        assert ".visible .entry" in ptx and "cj_kernel_k" in ptx
        try:
            sass = k.inspect_sass(sig)
        except RuntimeError as e:
            assert "nvdisasm" in str(e)
        else:
            assert "cj_kernel_k" in sass
    finally:
        cuda.enable_simulator(True)


def test_options_become_nvrtc_flags():
    assert nvrtc_flags() == []
    assert nvrtc_flags(lineinfo=True, opt=False, max_registers=32, fastmath=True) == [
        "-lineinfo", "--maxrregcount=32", "--ptxas-options=-O0", "--use_fast_math"]
    assert nvrtc_flags(max_registers=0) == []  # 0: no limit, as in numba-cuda
    # debug: DWARF (-G), which has the line table and turns ptxas's optimisation off itself
    assert nvrtc_flags(debug=True, lineinfo=True, opt=False) == ["-G"]
    assert nvrtc_flags(launch_bounds=(128, 2)) == ["-DCJ_LAUNCH_BOUNDS=__launch_bounds__(128, 2)"]
    with pytest.raises(ValueError, match="max_registers must be a positive integer"):
        cuda.jit(max_registers=-4)(add_one.py_func)


def test_options_reach_nvrtc(target):
    @cuda.jit(lineinfo=True, max_registers=40, opt=False, fastmath=True, cache=True)
    def k(x, y):
        i = cuda.grid(1)
        if i < x.size:
            y[i] = x[i] / x[0]  # float32 / float32

    @cuda.jit
    def plain(x, y):
        i = cuda.grid(1)
        if i < x.size:
            y[i] = x[i] / x[0]

    x = np.arange(1, 9, dtype=np.float32) * 3
    y = np.zeros_like(x)
    k[1, 8](x, y)
    np.testing.assert_allclose(y, np.arange(1, 9), rtol=1e-6)
    plain[1, 8](x, y)
    ptx = k._image(0, "compute_90").decode()
    plain_ptx = plain._image(0, "compute_90").decode()
    assert ".loc" in ptx and ".loc" not in plain_ptx  # -lineinfo
    assert "div.approx.ftz.f32" in ptx or "div.full.ftz.f32" in ptx  # --use_fast_math
    assert "div.rn.f32" in plain_ptx
    # --maxrregcount acts in ptxas: the CUBIN differs, the PTX does not.
    limited = cuda.jit(max_registers=16)(plain.py_func)
    limited[1, 8](x, y)
    assert limited._image(0, "compute_90") == plain._image(0, "compute_90")
    assert limited._image(0, "sm_90") != plain._image(0, "sm_90")


def test_ufunc_and_gufunc_calls_take_a_stream(target):
    @cujit.vectorize(["float32(float32, float32)"], target="cuda")
    def add(x, y):
        return x + y

    @cujit.guvectorize(["void(float32[:], float32[:])"], "(n)->()", target="cuda")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s

    s = cuda.stream()
    x = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(add(x, x, stream=s), 2 * x)
    d = cuda.to_device(x, stream=s)
    r = add(d, d, stream=s)
    np.testing.assert_array_equal(r.copy_to_host(stream=s), 2 * x)
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(total(m, stream=s), m.sum(axis=1))
    s.synchronize()


def test_a_kernel_called_from_gpu_code_is_a_device_function(target):
    # numba-cuda compiles a @cuda.jit dispatcher called from jitted code as a device function
    # (CUDADispatcher.get_call_template -> compile_device), so it may return a value.
    @cuda.jit
    def times_ten(x):
        return x * 10

    @cuda.jit
    def k(out, x):
        out[0] = times_ten(x)

    out = np.zeros(1)
    k[1, 1](out, 4.5)
    assert out[0] == 45.0
    assert times_ten.signatures == []  # only compiled into k, not as a kernel of its own
