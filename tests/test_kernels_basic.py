"""cuda.jit kernels as far as the foundation goes: launches with ints and tuples, thread and block
indices, cuda.grid/gridsize, N-d indexing with negative indices, slices as views, .shape/.size/
.ndim/len, scalar arguments, host arrays copied in and back, device functions calling device
functions, eager signatures, and launch errors. (The blog post seed's kernels are here.)"""
import math

import numpy as np
import pytest

import cujit
import cujit.errors

from cujit import cuda, float32, void


@cuda.jit
def doubled(arr):
    x_idx = cuda.threadIdx.x
    y_idx = cuda.threadIdx.y
    arr[x_idx, y_idx] *= 2


@cuda.jit
def doubled_auto_grid(arr):
    x_idx, y_idx = cuda.grid(2)
    arr[x_idx, y_idx] *= 2


@cuda.jit
def doubled_man_copy(arr, out):
    x_idx, y_idx = cuda.grid(2)
    out[x_idx, y_idx] = arr[x_idx, y_idx] * 2


def test_blog_post_kernels(target):
    arr = np.random.randn(3, 3).astype(np.float32)
    ref = arr * 2
    doubled[1, (3, 3)](arr)  # host array: copied in and back, as in Numba
    np.testing.assert_array_equal(arr, ref)
    arr = np.random.randn(3, 3).astype(np.float32)
    ref = arr * 2
    doubled_auto_grid[1, (3, 3)](arr)
    np.testing.assert_array_equal(arr, ref)
    arr = np.random.randn(3, 3).astype(np.float32)
    out = cuda.device_array_like(arr)
    arr_gpu = cuda.to_device(arr)
    doubled_man_copy[1, (3, 3)](arr_gpu, out)
    np.testing.assert_array_equal(out.copy_to_host(), arr * 2)


@cuda.jit
def grid_stride_scale(a, factor):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, a.shape[0], stride):
        a[i] = a[i] * factor


def test_grid_stride_loop_with_scalar_argument(target):
    a = np.arange(10000, dtype=np.float64)
    d = cuda.to_device(a)
    grid_stride_scale[7, 64](d, 2.5)
    np.testing.assert_array_equal(d.copy_to_host(), a * 2.5)


@cuda.jit
def indices(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = cuda.threadIdx.x
        out[i, 1] = cuda.blockIdx.x
        out[i, 2] = cuda.blockDim.x
        out[i, 3] = cuda.gridDim.x
        out[i, -1] = out.ndim + len(out) + out.size


def test_thread_and_block_indices(target):
    out = np.zeros((100, 5), dtype=np.int32)
    indices[4, 32](out)
    i = np.arange(100)
    np.testing.assert_array_equal(out[:, 0], i % 32)
    np.testing.assert_array_equal(out[:, 1], i // 32)
    assert (out[:, 2] == 32).all() and (out[:, 3] == 4).all()
    assert (out[:, 4] == 2 + 100 + 500).all()


@cuda.jit
def grid3(out):
    x, y, z = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = x * 10000 + y * 100 + z + 0 * (sx + sy + sz)


def test_three_dimensional_grid(target):
    out = np.zeros((5, 6, 7), dtype=np.int64)
    grid3[(2, 2, 2), (4, 4, 4)](out)
    x, y, z = np.indices(out.shape)
    np.testing.assert_array_equal(out, x * 10000 + y * 100 + z)


@cuda.jit
def row_sums(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i, :]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j]
        out[i] = s


@cuda.jit
def reverse_copy(a, out):
    i = cuda.grid(1)
    r = a[::-1]
    if i < r.shape[0]:
        out[i] = r[i]


def test_slices_are_views(target):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros(3, dtype=np.float32)
    row_sums[1, 8](a, out)
    np.testing.assert_array_equal(out, a.sum(axis=1))
    b = np.arange(10, dtype=np.int32)
    o = np.zeros(10, dtype=np.int32)
    reverse_copy[1, 16](b, o)
    np.testing.assert_array_equal(o, b[::-1])


def test_non_contiguous_and_fortran_arrays(target):
    a = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    out = np.zeros(3, dtype=np.float32)
    row_sums[1, 8](a, out)
    np.testing.assert_array_equal(out, a.sum(axis=1))
    big = np.arange(24, dtype=np.float32).reshape(3, 8)
    row_sums[1, 8](big[:, ::2], out)
    np.testing.assert_array_equal(out, big[:, ::2].sum(axis=1))


@cuda.jit(device=True)
def square(x):
    return x * x


@cuda.jit(device=True)
def norm2(x, y):
    return math.sqrt(square(x) + square(y))


@cuda.jit
def norms(xs, ys, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = norm2(xs[i], ys[i])


def test_device_functions_call_device_functions(target):
    x = np.random.rand(300).astype(np.float32)
    y = np.random.rand(300).astype(np.float32)
    out = np.zeros(300, dtype=np.float32)
    norms[3, 128](x, y, out)
    np.testing.assert_allclose(out, np.hypot(x, y), rtol=1e-6)


@cuda.jit('void(float32[::1], float32)')
def add_scalar_eager(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += v


@cuda.jit(void(float32[:], float32))
def add_scalar_typed(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += v


def test_eager_signatures(target):
    assert add_scalar_eager.signatures == ["(array(float32, 1d, C), float32)"]
    a = np.zeros(10, dtype=np.float32)
    add_scalar_eager[1, 32](a, np.float32(1.5))
    add_scalar_typed[1, 32](a, np.float32(1.0))
    np.testing.assert_array_equal(a, np.full(10, 2.5, dtype=np.float32))


def test_launch_configuration_errors(target):
    a = np.zeros(4, dtype=np.float32)
    # The driver's answer to a block past the GPU's limit, on both backends.
    with pytest.raises(cujit.errors.CudaAPIError, match="CUDA_ERROR_INVALID_VALUE.*above the GPU's limit of 1024 threads"):
        add_scalar_typed[1, 2048](a, np.float32(1))
    with pytest.raises(ValueError, match="must be positive"):
        add_scalar_typed[0, 32](a, np.float32(1))
    with pytest.raises(ValueError, match="must be a sequence of 1, 2 or 3 integers"):
        add_scalar_typed[1, (1, 1, 1, 1)](a, np.float32(1))
    with pytest.raises(TypeError, match="argument 0 of .*Cannot determine Numba type of <class 'dict'>"):
        add_scalar_typed[1, 32]({}, np.float32(1))
    with pytest.raises(ValueError, match="must be positive, got -2"):
        add_scalar_typed[(4, -2), 32](a, np.float32(1))
    with pytest.raises(cujit.errors.TypingError, match="called with 1 argument"):
        lazy_add[1, 32](a)
    # A kernel declared with signatures compiles nothing else, as in Numba.
    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) array\(float64, 1d, C\), float32"):
        add_scalar_typed[1, 32](np.zeros(4), np.float32(1))
    with pytest.raises(TypeError, match="No matching definition"):
        add_scalar_typed[1, 32](a)
    with pytest.raises(TypeError, match="No matching definition"):
        add_scalar_eager[1, 32](np.zeros((4, 4), np.float32)[:, 0], np.float32(1))  # not C-contiguous


@cuda.jit
def lazy_add(a, v):
    a[0] += v


def test_declared_signatures_convert_scalars(target):
    a = np.zeros(4, dtype=np.float32)
    add_scalar_typed[1, 32](a, 2)          # a Python int becomes the declared float32
    add_scalar_typed[1, 32](a, 0.5)        # a Python float too
    add_scalar_eager[1, 32](a, np.int16(-1))
    np.testing.assert_array_equal(a, np.full(4, 1.5, dtype=np.float32))
    assert add_scalar_typed.signatures == ["(array(float32, 1d, A), float32)"]


def test_kernel_called_from_python_is_an_error():
    with pytest.raises(RuntimeError, match="only be used inside"):
        cuda.grid(1)


@cuda.jit
def barrier_then_write(a):
    i = cuda.grid(1)
    cuda.syncthreads()
    if i < a.size:
        a[i] = i


def test_syncthreads(target):
    a = np.zeros(64, dtype=np.int64)
    barrier_then_write[2, 32](a)
    np.testing.assert_array_equal(a, np.arange(64))


@cuda.jit
def half_block_barrier(a):
    i = cuda.threadIdx.x
    if i < 16:
        cuda.syncthreads()
    a[i] = i


def test_a_barrier_part_of_the_block_skips_is_released_once_the_others_return(target):
    # Threads 16-31 return without reaching the barrier; PTX's `exit` releases a barrier that
    # only exited threads hold up, so the GPU (and numba-cuda's simulator) runs this to the end.
    # The simulator did report a deadlock here before.
    a = np.full(32, -1, dtype=np.int64)
    half_block_barrier[1, 32](a)
    assert a.tolist() == list(range(32))


@cuda.jit
def tail_block_sum(x, out):
    # The course's pattern: threads past the end return first, the rest reduce in shared memory.
    s = cuda.shared.array(64, dtype=np.float64)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i >= x.shape[0]:
        return
    s[t] = x[i]
    cuda.syncthreads()
    if t == 0:
        acc = 0.0
        for k in range(min(64, x.shape[0] - cuda.blockIdx.x * 64)):
            acc += s[k]
        out[cuda.blockIdx.x] = acc


def test_early_return_before_a_shared_memory_barrier(target):
    x = np.arange(100, dtype=np.float64)
    out = np.zeros(2)
    tail_block_sum[2, 64](x, out)
    assert out.tolist() == [float(x[:64].sum()), float(x[64:].sum())]


@cuda.jit
def votes(pred, out):
    i = cuda.threadIdx.x
    c = cuda.syncthreads_count(pred[i])
    a = cuda.syncthreads_and(pred[i])
    o = cuda.syncthreads_or(pred[i])
    cuda.syncwarp()
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()
    out[i, 0] = c
    out[i, 1] = a
    out[i, 2] = o


def test_barrier_votes_and_fences(target):
    for p in (np.arange(64) % 3 == 0, np.ones(64, bool), np.zeros(64, bool)):
        pred = p.astype(np.int32)
        out = np.zeros((64, 3), dtype=np.int32)
        votes[1, 64](pred, out)
        assert (out[:, 0] == pred.sum()).all()
        assert (out[:, 1] == int(pred.all())).all()
        assert (out[:, 2] == int(pred.any())).all()


@cuda.jit
def bit_intrinsics(x, out32, outf):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out32[i, 0] = cuda.popc(v)
        out32[i, 1] = cuda.clz(v)
        out32[i, 2] = cuda.ffs(v)
        out32[i, 3] = cuda.brev(v)
        outf[i, 0] = cuda.fma(np.float64(v), 2.0, 1.0)
        outf[i, 1] = cuda.cbrt(np.float64(v))


def test_bit_and_math_intrinsics(target):
    x = np.array([0, 1, 2, 3, 255, 1 << 20, 123456789, 2 ** 31 - 1], dtype=np.uint32)
    out32 = np.zeros((x.size, 4), dtype=np.uint32)
    outf = np.zeros((x.size, 2))
    bit_intrinsics[1, 32](x, out32, outf)
    bits = [format(int(v), "032b") for v in x]
    np.testing.assert_array_equal(out32[:, 0], [b.count("1") for b in bits])
    np.testing.assert_array_equal(out32[:, 1], [len(b) - len(b.lstrip("0")) for b in bits])
    np.testing.assert_array_equal(out32[:, 2], [(len(b) - b.rfind("1")) if "1" in b else 0 for b in bits])
    np.testing.assert_array_equal(out32[:, 3], [int(b[::-1], 2) for b in bits])
    np.testing.assert_allclose(outf[:, 0], x * 2.0 + 1.0)
    np.testing.assert_allclose(outf[:, 1], np.cbrt(x.astype(float)), rtol=1e-14)


@cuda.jit
def printer(a):
    i = cuda.grid(1)
    if i == 0:
        print("value", a[0], 7, True)


def test_print_from_kernel(target, capfd):
    printer[1, 4](np.array([2.5]))
    cuda.synchronize()
    out = capfd.readouterr().out
    assert "value 2.5 7 True" in out  # floats as Python's repr, on the GPU too (prelude/repr.h)


@cuda.jit
def slice_stores(a, b, c, d):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i, :] = i            # fill a row (converted to the array's dtype)
        a[i, 1:3] = 2.7        # part of it: float stored into int32 truncates, as in Numba
        c[i, :, :] = b[i]      # a 1-d row broadcast over a 2-d view
        d[i, ::2] = b[i, ::-1][:2]  # strided views on both sides


def test_assigning_to_slices(target):
    a = np.zeros((4, 5), np.int32)
    b = np.arange(12.0).reshape(4, 3)
    c = np.zeros((4, 2, 3), np.float32)
    d = np.full((4, 4), -1.0)
    slice_stores[1, 4](a, b, c, d)
    ref = np.repeat(np.arange(4, dtype=np.int32)[:, None], 5, axis=1)
    ref[:, 1:3] = 2
    np.testing.assert_array_equal(a, ref)
    np.testing.assert_array_equal(c, np.broadcast_to(b[:, None, :], (4, 2, 3)))
    refd = np.full((4, 4), -1.0)
    refd[:, ::2] = b[:, ::-1][:, :2]
    np.testing.assert_array_equal(d, refd)


@cuda.jit
def store_scalar(out, v):
    out[0] = v


@pytest.mark.parametrize("value", [np.int8(-5), np.int16(-300), np.int32(-70000), np.uint8(250),
                                   np.uint16(65000), np.uint32(4_000_000_000), np.int64(-2 ** 40),
                                   np.uint64(2 ** 64 - 3), np.float32(1.25e-3), np.float64(-2.5e300),
                                   np.bool_(True), True, 7, -1.5])
def test_scalar_arguments_keep_their_numpy_type(target, value):
    # NumPy scalars keep their dtype (a kernel is compiled per type); Python's bool, int and
    # float become boolean, int64 and float64, as in Numba.
    dtype = np.asarray(value).dtype if isinstance(value, np.generic) else \
        {bool: np.bool_, int: np.int64, float: np.float64}[type(value)]
    out = np.zeros(1, dtype=dtype)
    store_scalar[1, 1](out, value)
    assert out[0] == value


def test_launch_configurations_and_kernel_lifetimes(target):
    import gc
    import weakref

    def make():
        @cuda.jit
        def fill(a, v):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = v
        return fill

    d = cuda.to_device(np.zeros(8, np.int64))
    make()[1, 8](d, 4)  # the kernel itself is dropped before the call: the launch keeps it
    assert (d.copy_to_host() == 4).all()
    k = make()
    first = k[2, 4]
    k[1, 8](d, 3)  # the last configuration is remembered parsed; earlier objects still work
    k[1, 8](d, 3)
    first(d, 5)
    assert (d.copy_to_host() == 5).all()
    with pytest.raises(ValueError):
        k[1, 0]
    k[(1,), (8,)](d, 6)
    assert (d.copy_to_host() == 6).all()
    ref = weakref.ref(k)
    del k, first
    gc.collect()
    assert ref() is None  # no cycle keeps a kernel alive


def test_calling_a_kernel_without_a_configuration(target):
    @cuda.jit
    def noop(a):
        pass

    with pytest.raises(ValueError, match=r"(?s)launch configuration was not specified.*noop\[blockspergrid, threadsperblock\]"):
        noop(cuda.device_array(1))


@cuda.jit
def names_as_statements(a):
    cuda.atomic  # a bare module, function or type does nothing (found by the fuzz target)
    math.sqrt
    float32
    a[0] = 1.0


def test_bare_names_as_statements(target):
    d = cuda.to_device(np.zeros(1))
    names_as_statements[1, 1](d)
    assert d.copy_to_host()[0] == 1.0
