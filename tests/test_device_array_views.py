"""DeviceNDArray beyond copies: indexing and assignment, reshape/ravel/transpose/view/split/squeeze,
__array__, DLPack, and views used by kernels and CUDA ufuncs. Every result is compared with what
NumPy gives on the same host array; each test runs on the simulator and, where one exists, the GPU.
"""
import numpy as np
import pytest

import cujit
from cujit import cuda

from conftest import HAS_GPU

A = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

KEYS = [
    1, -1, (1, 2), (slice(None), 2), (Ellipsis, 1), (None, 1), (slice(None, None, -1),),
    (0, slice(1, 4, 2), slice(None, None, -2)), (slice(5, 1, -1),), (slice(1, 1),), (Ellipsis,),
    (1, Ellipsis, slice(2, None)), (slice(-2, None), None, slice(None, None, 3)),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_views_match_numpy(target, key):
    d = cuda.to_device(A)
    v = d[key]
    assert isinstance(v, cuda.DeviceNDArray)
    assert v.shape == A[key].shape and v.strides == A[key].strides
    np.testing.assert_array_equal(v.copy_to_host(), A[key])


def test_getitem_element_is_a_numpy_scalar(target):
    d = cuda.to_device(A)
    x = d[1, 2, 3]
    assert type(x) is np.float32 and x == A[1, 2, 3]
    assert d[-1, -1, -1] == A[-1, -1, -1]
    z = cuda.to_device(np.array(7, dtype=np.int16))  # 0-d
    assert z[()] == 7 and type(z[()]) is np.int16


def test_views_share_memory(target):
    d = cuda.to_device(A)
    row = d[1]
    row[:] = 0  # writing the view writes the array
    expect = A.copy()
    expect[1] = 0
    np.testing.assert_array_equal(d.copy_to_host(), expect)


def test_getitem_errors(target):
    d = cuda.to_device(A)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[3]
    with pytest.raises(IndexError, match="too many indices for array: array is 3-dimensional, but 4 were indexed"):
        d[0, 0, 0, 0]
    with pytest.raises(IndexError, match="only integers, slices"):
        d[np.array([0, 1])]
    with pytest.raises(IndexError, match="single ellipsis"):
        d[..., ...]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        d[::0]


@pytest.mark.parametrize("key,value", [
    ((slice(None),), 5),                                   # scalar fill, int into float32
    ((1,), np.arange(5, dtype=np.float64)),                # broadcast a row over axis 1
    ((slice(None), 0), np.arange(5)),                      # strided destination
    ((slice(None, None, -1), slice(None), 1), 2.5),        # negative strides
    ((Ellipsis, slice(None, None, 2)), np.ones((4, 3))),   # 2-d value into a 3-d view
    ((0, 0, 0), -3),                                       # one element
], ids=repr)
def test_setitem_matches_numpy(target, key, value):
    d = cuda.to_device(A)
    expect = A.copy()
    expect[key] = value
    d[key] = value
    np.testing.assert_array_equal(d.copy_to_host(), expect)


def test_setitem_from_device_arrays_and_conversion(target):
    d = cuda.device_array((4, 6), dtype=np.int32)
    d[:] = 0
    src = cuda.to_device(np.linspace(0.5, 5.5, 6))  # float64, converted as a C cast (truncation)
    d[2] = src
    d[:, 5] = cuda.to_device(np.array([9, 8, 7, 6], dtype=np.int64))[::-1]
    expect = np.zeros((4, 6), np.int32)
    expect[2] = np.linspace(0.5, 5.5, 6).astype(np.int32)
    expect[:, 5] = [6, 7, 8, 9]
    np.testing.assert_array_equal(d.copy_to_host(), expect)
    d.setitem((slice(None), 0), 4, stream=0)
    assert (d.copy_to_host()[:, 0] == 4).all()


def test_setitem_shape_errors_in_numba_cudas_words(target):
    d = cuda.to_device(A)
    # numba-cuda's messages, word for word (its own tests compare them whole).
    with pytest.raises(ValueError, match=r"^Can't copy sequence with size 2 to array axis 1 with dimension 4$"):
        d[:] = np.ones((2, 5))
    with pytest.raises(ValueError, match="^Can't assign 2-D array to 1-D self$"):
        d[0, 0] = np.ones((2, 5))


def test_reshape_and_ravel(target):
    d = cuda.to_device(A)
    for shape in [(12, 5), (60,), (5, -1), (3, 20), (1, 60, 1), (3, 4, 5)]:
        np.testing.assert_array_equal(d.reshape(shape).copy_to_host(), A.reshape(shape))
    np.testing.assert_array_equal(d.reshape(6, 10).copy_to_host(), A.reshape(6, 10))
    f = cuda.to_device(np.asfortranarray(A))
    np.testing.assert_array_equal(f.reshape(20, 3, order="F").copy_to_host(), A.reshape(20, 3, order="F"))
    np.testing.assert_array_equal(d.ravel().copy_to_host(), A.ravel())
    np.testing.assert_array_equal(f.ravel(order="F").copy_to_host(), A.ravel(order="F"))
    # A dimension of a non-contiguous view can still be split without a copy, as in NumPy.
    np.testing.assert_array_equal(d[:, 1].reshape(3, 5, 1).copy_to_host(), A[:, 1].reshape(3, 5, 1))
    with pytest.raises(NotImplementedError, match="requires copying"):
        d.T.reshape(60)
    with pytest.raises(NotImplementedError, match="requires copying"):
        d[:, ::2].ravel()
    with pytest.raises(ValueError, match=r"cannot reshape array of size 60 into shape \(7, 9\)"):
        d.reshape(7, 9)
    with pytest.raises(ValueError, match="one unknown dimension"):
        d.reshape(-1, -1)


def test_transpose_view_and_squeeze(target):
    d = cuda.to_device(A)
    np.testing.assert_array_equal(d.T.copy_to_host(), A.T)
    np.testing.assert_array_equal(d.transpose(1, 0, 2).copy_to_host(), A.transpose(1, 0, 2))
    np.testing.assert_array_equal(d.transpose((2, 0, 1)).copy_to_host(), A.transpose(2, 0, 1))
    # numba-cuda's ValueError for axes that are not a permutation of the dimensions.
    with pytest.raises(ValueError, match=r"^invalid axes list \(0, 1\)$"):
        d.transpose(0, 1)
    with pytest.raises(ValueError, match=r"^invalid axes list \(0, 0, 1\)$"):
        d.transpose(0, 0, 1)
    with pytest.raises(ValueError, match=r"^invalid axes list \(0, 3, 1\)$"):
        np.transpose(d, axes=(0, 3, 1))
    assert d.T.is_f_contiguous() and not d.T.is_c_contiguous()
    assert d.T.flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": True}

    as_int = d.view(np.int32)
    np.testing.assert_array_equal(as_int.copy_to_host(), A.view(np.int32))
    halves = d.view(np.int16)
    assert halves.shape == (3, 4, 10)
    np.testing.assert_array_equal(halves.copy_to_host(), A.view(np.int16))
    with pytest.raises(ValueError, match="C-contiguous"):
        d.T.view(np.float64)
    with pytest.raises(ValueError, match="divisor"):
        cuda.to_device(np.zeros(3, np.float32)).view(np.float64)

    s = cuda.to_device(np.zeros((1, 3, 1), np.int8))
    assert s.squeeze().shape == (3,) and s.squeeze(axis=0).shape == (3, 1)
    with pytest.raises(ValueError, match="size not equal to one"):
        s.squeeze(axis=1)


def test_split(target):
    d = cuda.to_device(np.arange(10, dtype=np.int64))
    parts = list(d.split(4))
    assert [p.copy_to_host().tolist() for p in parts] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    parts[1][0] = -1  # views of the same memory
    assert d.copy_to_host()[4] == -1
    with pytest.raises(ValueError, match="only support 1d array"):
        list(cuda.to_device(A).split(2))
    with pytest.raises(ValueError, match="only support unit stride"):
        list(d[::2].split(2))


def test_array_protocol_len_repr(target):
    d = cuda.to_device(A)
    assert np.asarray(d).shape == A.shape and np.sum(d) == A.sum()
    assert np.asarray(d, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="copy=False"):
        d.__array__(copy=False)
    assert len(d) == 3 and len(d[0]) == 4
    r = repr(d)
    assert "shape=(3, 4, 5)" in r and "float32" in r
    assert d.device_ctypes_pointer.value == d._device_pointer


def test_views_as_kernel_and_ufunc_arguments(target):
    @cuda.jit
    def add_one(x):
        i, j = cuda.grid(2)
        if i < x.shape[0] and j < x.shape[1]:
            x[i, j] += 1

    @cujit.vectorize(["float32(float32, float32)"], target="cuda")
    def mul(a, b):
        return a * b

    d = cuda.to_device(A.reshape(6, 10))
    add_one[(1, 1), (8, 8)](d[1:5, ::3])
    expect = A.reshape(6, 10).copy()
    expect[1:5, ::3] += 1
    np.testing.assert_array_equal(d.copy_to_host(), expect)
    # Transposed, F-ordered and broadcast operands of a ufunc.
    t = d.T
    out = mul(t, cuda.to_device(np.arange(6, dtype=np.float32)))
    np.testing.assert_array_equal(out.copy_to_host(), expect.T * np.arange(6, dtype=np.float32))
    f = cuda.to_device(np.asfortranarray(expect))
    np.testing.assert_array_equal(mul(f, f).copy_to_host(), expect * expect)


@pytest.mark.parametrize("n", [1, 7, 1000, 100_003])
def test_ufunc_dense_path_and_tails(target, n):
    # The GPU loop moves 16 bytes per operand access when every operand is dense and aligned,
    # then finishes the tail one element at a time; an offset view takes the general path.
    @cujit.vectorize(["float32(float32, float32)", "float64(float32, float64)", "int8(int8, int8)"], target="cuda")
    def add(a, b):
        return a + b

    x = np.arange(n, dtype=np.float32)
    y = np.arange(n, dtype=np.float64) * 0.5
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    np.testing.assert_array_equal(add(dx, dx).copy_to_host(), x + x)
    np.testing.assert_array_equal(add(dx, dy).copy_to_host(), x + y)
    b = (np.arange(n) % 100).astype(np.int8)
    np.testing.assert_array_equal(add(b, b), (b + b).astype(np.int8))
    if n > 1:
        np.testing.assert_array_equal(add(dx[1:], dx[:-1]).copy_to_host(), x[1:] + x[:-1])


def test_dlpack_on_the_simulator():
    from cujit import _core
    previous = _core.simulator_enabled()
    _core.set_simulator(True)
    try:
        d = cuda.to_device(A)
        assert d.__dlpack_device__() == (1, 0)  # host memory: a CPU tensor
        h = np.from_dlpack(d.T)
        np.testing.assert_array_equal(h, A.T)
        h[0, 0, 0] = 99  # no copy
        assert d.copy_to_host()[0, 0, 0] == 99
        src = np.arange(12, dtype=np.int16).reshape(3, 4)
        v = cuda.from_dlpack(src[:, ::2])
        assert v.shape == (3, 2) and v.strides == (8, 4)
        del src
        np.testing.assert_array_equal(v.copy_to_host(), np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2])
        cap = d.__dlpack__(max_version=(1, 0))
        assert cuda.from_dlpack(cap).shape == A.shape
        with pytest.raises(TypeError, match="already consumed"):
            cuda.from_dlpack(cap)
        legacy = d.__dlpack__()
        assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    finally:
        _core.set_simulator(previous)


def test_as_cuda_array_and_is_cuda_array(target):
    d = cuda.to_device(A)
    assert cuda.as_cuda_array(d) is d and cuda.is_cuda_array(d)
    assert not cuda.is_cuda_array(A)
    with pytest.raises(TypeError, match="does not implement the CUDA array interface"):
        cuda.as_cuda_array(A)


# ---- the GPU with CuPy and PyTorch (the GPU machine has both) -----------------------------------

@pytest.fixture
def gpu():
    from cujit import _core
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    yield
    _core.set_simulator(previous)


@pytest.mark.gpu
def test_cupy_interop(gpu):
    cp = pytest.importorskip("cupy")
    d = cuda.to_device(A)
    c = cp.asarray(d)  # through __cuda_array_interface__, no copy
    assert c.shape == A.shape and int(c.data.ptr) == d._device_pointer
    c *= 2
    np.testing.assert_array_equal(d.copy_to_host(), A * 2)
    back = cuda.as_cuda_array(c[:, 1])
    np.testing.assert_array_equal(back.copy_to_host(), A[:, 1] * 2)
    via_dlpack = cp.from_dlpack(d)
    assert int(via_dlpack.data.ptr) == d._device_pointer
    e = cuda.from_dlpack(cp.arange(10, dtype=cp.float64))
    np.testing.assert_array_equal(e.copy_to_host(), np.arange(10.0))

    @cuda.jit
    def double(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= 2

    arr = cp.ones(1000, dtype=cp.float32)
    double[4, 256](arr)  # a CuPy array straight into a kernel
    assert float(arr.sum()) == 2000.0

    @cujit.vectorize(["float32(float32, float32)"], target="cuda")
    def add(a, b):
        return a + b

    out = add(arr, arr)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(1000, 4, np.float32))


@pytest.mark.gpu
def test_torch_interop(gpu):
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    d = cuda.from_dlpack(t)
    assert d.shape == (3, 4) and d._device_pointer == t.data_ptr()
    d[0] = 0
    torch.cuda.synchronize()
    assert t[0].sum().item() == 0
    u = torch.from_dlpack(cuda.to_device(A))
    assert tuple(u.shape) == A.shape and torch.equal(u.cpu(), torch.from_numpy(A))
    v = cuda.as_cuda_array(t.T)
    np.testing.assert_array_equal(v.copy_to_host(), t.T.cpu().numpy())

    @cuda.jit
    def inc(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 1

    w = torch.zeros(100, device="cuda", dtype=torch.int64)
    inc[1, 128](w)
    torch.cuda.synchronize()
    assert w.sum().item() == 100


@pytest.mark.skipif(HAS_GPU, reason="checks the message seen without a GPU")
def test_from_dlpack_of_host_memory_needs_the_simulator_without_gpu():
    from cujit import _core
    previous = _core.simulator_enabled()
    _core.set_simulator(False)
    try:
        with pytest.raises(TypeError, match="CPU memory"):
            cuda.from_dlpack(np.zeros(3))
    finally:
        _core.set_simulator(previous)
