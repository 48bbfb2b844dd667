"""Constant expressions as array shapes (issue 16): literals, global ints, integer NumPy scalars,
global tuples and their items, and Python's integer arithmetic on them, in cuda.local.array,
cuda.shared.array and NumPy's constructors; dtypes written any way Numba takes them. Expected
values are what Numba and NumPy give for the same programs."""
import numpy as np
import pytest

import cujit
from cujit import cuda, float32, njit, types

TPB = 16
SHAPE = (4, 8)
NS = np.int32(8)
MIXED = (2, 2.5)
FLAGS = (np.float32(0.5), True, 3)
NDIM = 2


@cuda.jit
def shapes_kernel(out):
    a = cuda.shared.array(2**5, np.float32)
    b = cuda.local.array((TPB // 2, -1 + TPB), dtype=np.float64)
    c = cuda.shared.array(SHAPE, float32)
    d = cuda.local.array(SHAPE[0] * ((TPB)), 'float32')
    e = cuda.local.array(+NS, types.float32)
    f = cuda.local.array(~-3 + (1 << 2), cujit.types.int16)
    g = cuda.shared.array((SHAPE[-1], 2**2 % 3), cujit.float32)
    i = cuda.threadIdx.x
    if i == 0:
        out[0] = a.shape[0]
        out[1] = b.shape[0] * 100 + b.shape[1]
        out[2] = c.shape[0] * 100 + c.shape[1]
        out[3] = d.shape[0]
        out[4] = e.shape[0]
        out[5] = f.shape[0]
        out[6] = g.shape[0] * 100 + g.shape[1]
        d[63] = 2.5
        out[7] = d[63]
        t = SHAPE
        out[8] = t[1] + MIXED[1] + len(FLAGS) + FLAGS[1]
        p = cuda.grid(NDIM)
        out[9] = p[0] + p[1]


def test_constant_expression_shapes_in_kernels(target):
    out = np.zeros(10)
    shapes_kernel[1, 4](out)
    assert out.tolist() == [32, 815, 408, 64, 8, 6, 801, 2.5, 8 + 2.5 + 3 + 1, 0]


def test_global_tuples_are_constants_in_jit_code():
    @njit
    def f():
        a = np.zeros(SHAPE)
        b = np.empty(SHAPE[1] * 2**2, 'float32')
        s = 0
        for x in SHAPE:
            s += x
        return a.shape[0] * 1000 + a.shape[1] * 100 + b.shape[0] + s * 10000, b.itemsize, MIXED[1], b

    r = f()
    assert r[:3] == (120000 + 4000 + 800 + 32, 4, 2.5)
    assert r[3].dtype == np.float32


def test_dtype_names_follow_numpy():
    # np.byte is int8 in NumPy (numba.byte is uint8); 'f4' and 'int' are NumPy's names.
    @njit
    def f():
        a = np.zeros(2, np.byte)
        a[0] = 200
        b = np.zeros(2, 'f4')
        b[0] = 0.1
        c = np.zeros(2, 'int')
        c[0] = 2**40
        return a[0], b[0], c[0]

    a0, b0, c0 = f()
    assert a0 == -56
    assert b0 == np.float32(0.1)
    assert c0 == 2**40


@pytest.mark.parametrize("shape, message", [
    # Python folds the literal before Numba sees it, and neither int64 nor uint64 holds it.
    ("2**70", "integer constant too large for int64 or uint64"),
    ("(2**32, 2**32)", "cuda.local.array() is too large"),
    ("2**40", "cuda.local.array() is too large: this array takes 8796093022208 bytes"),
    ("70000", "more than the 524288 bytes (512 KiB) of local memory"),
    ("TPB * 2.0", "this is a float64, not an integer"),
    ("n", "'n' is a variable"),
    ("MIXED", "the global tuple 'MIXED' holds a float64"),
])
def test_bad_local_array_shapes(target, shape, message):
    src = ("def k(out, n):\n"
           "    a = cuda.local.array(%s, np.float64)\n"
           "    out[0] = a[0]\n" % shape)
    ns = {"cuda": cuda, "np": np, "TPB": TPB, "MIXED": MIXED}
    import linecache
    filename = "<bad_shape_%d>" % abs(hash(shape))
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), ns)
    with pytest.raises(cujit.errors.TypingError) as info:
        cuda.jit(ns["k"])[1, 1](np.zeros(1), 3)
    assert message in info.value.msg
    assert info.value.lineno == 2


def test_local_arrays_of_a_kernel_and_its_device_functions_add_up(target):
    @cuda.jit(device=True)
    def helper(x):
        t = cuda.local.array(40000, np.float64)  # 320000 bytes
        t[0] = x
        return t[0]

    @cuda.jit
    def k(out):
        s = cuda.local.array(40000, np.float64)
        s[0] = 1.0
        out[0] = helper(s[0])

    with pytest.raises(cujit.errors.TypingError, match="kernel k needs 640000 bytes of local memory per thread"):
        k[1, 1](np.zeros(1))


def test_large_legal_local_array_with_barrier_on_simulator(target):
    # 400 KB of local memory: within the GPU's 512 KiB; the simulator's fibers had 256 KiB stacks.
    if target != "sim":
        # The driver reserves local memory for every thread the GPU can hold at once: 400 KB each
        # is more than an H100's 80 GB (CUDA_ERROR_OUT_OF_MEMORY at the launch, as numba-cuda).
        pytest.skip("a simulator stack-size test")
    @cuda.jit
    def k(out):
        a = cuda.local.array(50000, np.float64)
        for j in range(50000):
            a[j] = j
        cuda.syncthreads()
        out[cuda.threadIdx.x] = a[49999]

    out = np.zeros(4)
    k[1, 4](out)
    assert out.tolist() == [49999.0] * 4


@cuda.jit
def k_local_constant_shape(out):
    # A local assigned once to a constant is a constant (Numba's single definition): N, M and
    # the tuple SHAPE are known when typing.
    N = 100
    M = N // 4 + 1
    SHAPE = (2, M)
    sm = cuda.shared.array(N, np.int32)
    loc = cuda.local.array(SHAPE, np.float64)
    i = cuda.grid(1)
    sm[i] = i
    cuda.syncthreads()
    loc[1, M - 1] = sm[N - 1 - i]
    out[i] = loc[1, 25] + sm.size + loc.shape[1]


def test_local_constant_shapes(target):
    out = np.zeros(100)
    k_local_constant_shape[1, 100](out)
    assert list(out) == [99 - i + 100 + 26 for i in range(100)]


@pytest.mark.parametrize("setup", [
    "    n = 4\n    n = 8\n",            # assigned twice: no single definition
    "    n = 4\n    n += 1\n",
    "    for n in range(3):\n        pass\n",
    "    n, m = 4, 5\n",                 # bound by unpacking: not followed
    "    n = len(out)\n",                # a run-time value
])
def test_local_shapes_that_are_not_constants(target, setup):
    src = ("def k(out):\n" + setup +
           "    a = cuda.local.array(n, np.float64)\n"
           "    out[0] = a[0]\n")
    ns = {"cuda": cuda, "np": np}
    import linecache
    filename = "<local_shape_%d>" % abs(hash(setup))
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), ns)
    with pytest.raises(cujit.errors.TypingError) as info:
        cuda.jit(ns["k"])[1, 1](np.zeros(1))
    assert "needs a shape of constant integers" in info.value.msg
    assert info.value.lineno == src.splitlines().index("    a = cuda.local.array(n, np.float64)") + 1
