"""Device arrays of record (structured) dtype: made, copied, sliced, indexed from Python and passed
to kernels on each target. Expected values are numba-cuda 0.30's (its simulator) on the same code;
the record's layout is the one kernels use (compiler Record, bindings/records.cpp)."""
import numpy as np
import pytest

from cujit import cuda

REC = np.dtype([("x", np.int32), ("y", np.float64), ("arr", "u1", (3,))], align=True)
PACKED = np.dtype([("a", np.int32), ("b", np.float64)])


def host():
    h = np.zeros(3, REC)
    h["x"] = [1, 2, 3]
    h["y"] = [0.5, 1.5, 2.5]
    h["arr"] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    return h


def rows(a):
    return [(int(r[0]), float(r[1]), [int(v) for v in r[2]]) for r in a]


def test_to_device_copy_back_dtype_and_layout(target):
    d = cuda.to_device(host())
    assert d.dtype == REC and d.shape == (3,) and d.strides == (24,) and d.size == 3 and d.nbytes == 72
    assert d.itemsize == 24
    assert rows(d.copy_to_host()) == rows(host())
    out = np.zeros(3, REC)
    d.copy_to_host(out)
    assert rows(out) == rows(host())
    assert rows(d[1:].copy_to_host()) == rows(host()[1:])
    assert rows(d[::-1].copy_to_host()) == rows(host()[::-1])
    with pytest.raises(TypeError, match="incompatible dtype: .* vs. float64"):
        d.copy_to_host(np.zeros(3, np.float64))


def test_device_array_and_like(target):
    e = cuda.device_array(2, dtype=REC)
    assert (e.shape, e.strides, e.dtype == REC, e.nbytes) == ((2,), (24,), True, 48)
    assert cuda.device_array((2, 2), dtype=REC, order="F").strides == (24, 48)
    like = cuda.device_array_like(cuda.to_device(host()))
    assert like.dtype == REC and like.shape == (3,)
    assert cuda.device_array_like(host()).dtype == REC
    p = cuda.to_device(np.zeros(4, PACKED))
    assert p.dtype == PACKED and p.strides == (12,)


def test_device_to_device_copy(target):
    d = cuda.to_device(host())
    d2 = cuda.to_device(np.zeros(3, REC))
    d2.copy_to_device(d)
    assert rows(d2.copy_to_host()) == rows(host())
    d3 = cuda.to_device(np.zeros(3, REC))
    d3.copy_to_device(host())
    assert rows(d3.copy_to_host()) == rows(host())


def test_kernel_reads_and_writes_records(target):
    @cuda.jit
    def double_y(a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i].y = a[i].x * 2.0
            a[i].arr[0] = a[i].arr[2]

    @cuda.jit
    def total(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i] = a[i].x + a[i].y + a[i].arr[0] + a[i].arr[2]

    d = cuda.to_device(host())
    out = cuda.device_array(3)
    total[1, 3](d[::-1], out)  # a strided view: layout A
    assert out.copy_to_host().tolist() == [21.5, 13.5, 5.5]
    double_y[1, 3](d)
    assert rows(d.copy_to_host()) == [(1, 2.0, [3, 2, 3]), (2, 4.0, [6, 5, 6]), (3, 6.0, [9, 8, 9])]


def test_a_uint8_array_after_a_record_array_is_typed_afresh(target):
    # A record array's type is an array of uint8 bytes plus its Record: a launch plan made for it
    # would let the next uint8 array through the fast path into the record kernel.
    @cuda.jit
    def first(a, out):
        out[0] = a.shape[0]

    d = cuda.to_device(host())
    o = cuda.device_array(1)
    for _ in range(3):
        first[1, 1](d, o)
    u = cuda.to_device(np.arange(5, dtype=np.uint8))
    first[1, 1](u, o)
    assert o.copy_to_host().tolist() == [5.0]
    assert len(first.overloads) == 2


def test_one_record_is_device_memory(target):
    # numba-cuda's d[i] of a record array is a DeviceRecord (shape (), in device memory): its fields
    # read back to the host, and writes to it reach the array.
    d = cuda.to_device(host())
    r = d[2]
    assert r.shape == () and r.dtype == REC
    assert r["x"] == 3 and r["y"] == 2.5
    r["x"] = 42
    assert rows(d.copy_to_host())[2] == (42, 2.5, [7, 8, 9])

    @cuda.jit
    def setrec(r, v):
        r.x = v
        r.y = v * 0.5
        r.arr[1] = v

    setrec[1, 1](d[1], 7)
    assert rows(d.copy_to_host()) == [(1, 0.5, [1, 2, 3]), (7, 3.5, [4, 7, 6]), (42, 2.5, [7, 8, 9])]


def test_fields_as_views_and_assignment(target):
    d = cuda.to_device(host())
    assert d["y"].copy_to_host().tolist() == [0.5, 1.5, 2.5]
    assert d[1:3]["x"].copy_to_host().tolist() == [2, 3]
    assert d["arr"].shape == (3, 3) and d["arr"].copy_to_host()[2].tolist() == [7, 8, 9]
    d["x"] = 5
    d[0] = host()[2]
    assert rows(d.copy_to_host()) == [(3, 2.5, [7, 8, 9]), (5, 1.5, [4, 5, 6]), (5, 2.5, [7, 8, 9])]
    with pytest.raises(ValueError, match="no field of name z"):
        d["z"]
    with pytest.raises(IndexError, match="a field name needs a structured dtype"):
        cuda.to_device(np.zeros(2))["x"]


def test_ufuncs_refuse_record_arrays(target):
    @cuda.vectorize(["float64(float64)"])
    def twice(x):
        return 2 * x

    with pytest.raises(TypeError, match=r"a CUDA ufunc does not take device arrays of record dtype \(Record\("):
        twice(cuda.to_device(host()))
