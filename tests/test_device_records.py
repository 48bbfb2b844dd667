"""numba-cuda's device record API (numba.cuda.cudadrv.devicearray: DeviceRecord, from_record_like,
auto_device of a record scalar), `gpu_data` of device arrays, and record and enum types in
signatures. Expectations are numba-cuda 0.30's (its test_cuda_devicerecord.py, test_datetime.py,
test_alignment.py on the GPU) and Numba 0.68's (str() of types, IntEnumMember signatures)."""
import ctypes
from enum import Enum, IntEnum

import numpy as np
import pytest

import cujit
from cujit import cuda, types
from cujit.cuda.cudadrv.devicearray import DeviceRecord, auto_device, from_record_like

DT = np.dtype([("a", np.int32), ("b", np.float32)], align=True)
STR_REC = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", (np.str_, 5))], align=True)


def host_records(ctor):
    zero = ctor(1, DT)[0]
    nonzero = ctor(1, DT)[0]
    nonzero["a"] = 10
    nonzero["b"] = 11.0
    return zero, nonzero


def check_device_record(reference, rec):
    assert rec.shape == () and rec.strides == ()
    assert rec.dtype == reference.dtype
    assert rec.alloc_size == reference.dtype.itemsize
    assert rec.gpu_data is not None
    assert rec.device_ctypes_pointer != ctypes.c_void_p(0)
    assert rec._numba_type_ == cujit.from_dtype(reference.dtype)
    assert isinstance(rec, DeviceRecord)


@pytest.mark.parametrize("ctor", [np.zeros, np.recarray], ids=["void", "record"])
def test_device_record_interface_and_copies(target, ctor):
    hostz, hostnz = host_records(ctor)
    devrec = DeviceRecord(DT)
    check_device_record(hostz, devrec)
    devrec.copy_to_device(hostz.copy())
    back = hostnz.copy()
    assert devrec.copy_to_host(back) is back  # into the record scalar's own bytes
    np.testing.assert_equal(back, hostz)
    devrec.copy_to_device(hostnz.copy())
    back = hostz.copy()
    devrec.copy_to_host(back)
    np.testing.assert_equal(back, hostnz)
    assert (int(back["a"]), float(back["b"])) == (10, 11.0)
    assert devrec["a"] == 10 and devrec["b"] == 11.0
    host = devrec.copy_to_host()
    assert host.shape == () and host.dtype == DT and int(host["a"]) == 10


@pytest.mark.parametrize("ctor", [np.zeros, np.recarray], ids=["void", "record"])
def test_from_record_like_and_auto_device(target, ctor):
    hostz, hostnz = host_records(ctor)
    devrec = from_record_like(hostz.copy())
    check_device_record(hostz, devrec)
    devrec2 = from_record_like(devrec)
    check_device_record(devrec, devrec2)
    assert devrec.gpu_data != devrec2.gpu_data  # new memory each
    devrec3, new = auto_device(hostnz.copy())
    check_device_record(hostnz, devrec3)
    assert new is True
    back = hostz.copy()
    devrec3.copy_to_host(back)
    np.testing.assert_equal(back, hostnz)
    assert auto_device(devrec3) == (devrec3, False)


def test_device_record_refusals(target):
    with pytest.raises(TypeError, match="not a structured"):
        DeviceRecord(np.float64)
    small = cuda.device_array(2, np.uint8)
    with pytest.raises(ValueError, match="fewer than the 8"):
        DeviceRecord(DT, gpu_data=small.gpu_data)


def test_device_record_in_existing_memory(target):
    d = cuda.to_device(np.array([(1, 2.0), (3, 4.0)], dtype=DT))
    second = DeviceRecord(DT, gpu_data=d[1:].gpu_data)  # numba-cuda's gpu_data=: no copy
    assert (second["a"], second["b"]) == (3, 4.0)
    second["a"] = 7
    assert d.copy_to_host()["a"].tolist() == [1, 7]


def test_device_record_kernel_argument(target):
    @cuda.jit
    def bump(r):
        r.a += 5
        r["b"] = r.a * 0.5

    devrec = DeviceRecord(DT)
    _, hostnz = host_records(np.zeros)
    devrec.copy_to_device(hostnz)
    bump[1, 1](devrec)
    back = np.zeros(1, DT)[0]
    devrec.copy_to_host(back)
    assert (int(back["a"]), float(back["b"])) == (15, 7.5)


def test_gpu_data_identity(target):
    # numba-cuda's test_datetime: a view as int64 shares the datetime array's memory.
    arr = np.arange("2005-02", "2006-02", dtype="datetime64[D]")
    darr = cuda.to_device(arr)
    viewed = darr.view(np.int64)
    assert viewed.gpu_data == darr.gpu_data
    assert cuda.to_device(arr).gpu_data != darr.gpu_data
    assert darr[1:].gpu_data != darr.gpu_data
    g = darr.gpu_data
    assert g.size == arr.nbytes and int(g.device_pointer) == darr.device_ctypes_pointer.value
    assert cuda.device_array(0).gpu_data != cuda.device_array(0).gpu_data


def test_string_field_of_a_device_record(target):
    # numba-cuda's TestRecordDtypeWithStructArrays: a field compiled code has no type for is
    # read and written through the host, one record at a time.
    ary = cuda.device_array(3, dtype=STR_REC)
    for i in range(ary.size):
        x = i + 1
        ary[i]["a"] = x / 2
        ary[i]["b"] = x
        ary[i]["c"] = x * 1j
        ary[i]["d"] = str(x) * 5
    for i in range(ary.size):
        x = i + 1
        assert (ary[i]["a"], ary[i]["b"], ary[i]["c"], ary[i]["d"]) == (x / 2, x, x * 1j, str(x) * 5)
    assert ary.copy_to_host()["d"].tolist() == ["11111", "22222", "33333"]
    with pytest.raises(TypeError, match="field 'd' has type \\[unichr x 5\\], which a device array cannot hold"):
        ary["d"]  # a whole column: no host copy would see writes


REC_ALIGNED = np.dtype([("a", "int32"), ("b", "float64")], align=True)
REC_PACKED = np.dtype([("a", "int32"), ("b", "float64")])


def test_record_types_print_as_numba():
    rec = cujit.from_dtype(REC_ALIGNED)
    assert str(rec[:]) == "array(Record(a[type=int32;offset=0],b[type=float64;offset=8];16;True), 1d, A)"
    assert str(cujit.from_dtype(REC_PACKED)[::1]) == (
        "unaligned array(Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False), 1d, C)")


def test_record_array_signature(target):
    # numba-cuda's test_alignment::test_record_alignment: an eager signature of a record array.
    rec = cujit.from_dtype(REC_ALIGNED)

    @cuda.jit((rec[:],))
    def foo(a):
        i = cuda.grid(1)
        a[i].a = a[i].b

    a_recarray = np.recarray(3, dtype=REC_ALIGNED)
    for i in range(a_recarray.size):
        a_rec = a_recarray[i]
        a_rec.a = 0
        a_rec.b = (i + 1) * 123
    foo[1, 3](a_recarray)
    assert a_recarray.a.tolist() == [123, 246, 369]
    with pytest.raises(TypeError, match="No matching definition"):  # another dtype matches no signature
        foo[1, 3](np.zeros(3))
    with pytest.raises(TypeError, match="No matching definition"):  # not even the record's bytes
        foo[1, 3](np.zeros(3, np.uint8))
    other = np.zeros(3, np.dtype([("a", "int32"), ("c", "float64")], align=True))
    with pytest.raises(TypeError, match="No matching definition"):  # nor another record
        foo[1, 3](other)


def test_record_scalar_and_string_signatures(target):
    rec = cujit.from_dtype(REC_ALIGNED)

    @cuda.jit(types.void(rec, types.float64[:]))
    def read(r, out):
        out[0] = r.a + r.b

    h = np.zeros(1, REC_ALIGNED)
    h[0] = (2, 0.5)
    out = np.zeros(1)
    read[1, 1](h[0], out)
    assert out[0] == 2.5

    # The printed type is a signature string too (within one process: the dtype made it).
    @cuda.jit("void(%s, float64[:])" % rec[:])
    def first(a, out):
        out[0] = a[0].b

    first[1, 1](h, out)
    assert out[0] == 0.5


def test_unknown_record_spelling_refused():
    with pytest.raises(ValueError, match="unknown record type 'Record\\(z\\[type=int8;offset=0\\];1;False\\)'"):
        cuda.jit("void(array(Record(z[type=int8;offset=0];1;False), 1d, A))")(lambda a: None)
    with pytest.raises(ValueError, match="expected the layout C, F or A"):
        cuda.jit("void(array(int32, 1d, Q))")(lambda a: None)


def test_array_spelling_signature(target):
    @cuda.jit("void(array(int32, 1d, C), readonly array(float64, 2d, A))")
    def f(a, b):
        a[0] = int(b[1, 1])

    assert str(types.int32[:]) in ("int32[:]", "array(int32, 1d, A)")
    a = np.zeros(1, np.int32)
    b = np.arange(4.0).reshape(2, 2)
    f[1, 1](a, b)
    assert a[0] == 3


class Shape(IntEnum):
    circle = 1
    square = 2


class Color(Enum):
    red = 1
    green = 2


def test_enum_member_types():
    t = types.IntEnumMember(Shape, types.int64)
    assert str(t) == "IntEnum<int64>(Shape)"
    assert str(types.EnumMember(Color, types.int64)) == "Enum<int64>(Color)"
    assert t == types.IntEnumMember(Shape, types.int64) and t != types.EnumMember(Shape, types.int64)


def test_jit_enum_member_signatures():
    # Numba 0.68: the signature's enum class is the argument's; an int matches no definition.
    @cujit.njit(types.int64(types.IntEnumMember(Shape, types.int64)))
    def f(s):
        return s * 10 + 1

    assert f(Shape.square) == 21
    with pytest.raises(TypeError, match="No matching definition for argument type\\(s\\) int64"):
        f(2)

    @cujit.njit(types.boolean(types.EnumMember(Color, types.int64)))
    def g(c):
        return c == Color.green

    assert (g(Color.green), g(Color.red)) == (True, False)

    @cujit.njit(types.IntEnumMember(Shape, types.int64)(types.IntEnumMember(Shape, types.int64)))
    def h(s):
        return s

    assert h(Shape.circle) is Shape.circle


def test_kernel_enum_member_signature(target):
    @cuda.jit(types.void(types.IntEnumMember(Shape, types.int64), types.EnumMember(Color, types.int64),
                         types.int64[:]))
    def k(s, c, out):
        out[0] = s + 1
        out[1] = c == Color.green

    out = np.zeros(2, np.int64)
    k[1, 1](Shape.square, Color.green, out)
    assert out.tolist() == [3, 1]


FIELDS = np.dtype([("value1", np.int64), ("value2", np.float64), ("arr", np.int32, (2,))])


def field_host():
    a = np.zeros(4, FIELDS)
    a["value1"] = np.arange(4)
    a["value2"] = np.arange(4) / 10
    a["arr"] = [[1, 2], [3, 4], [5, 6], [7, 8]]
    return a


def test_jit_record_array_field_views():
    # Numba 0.68: a.x and a['x'] of a record array are views of the field (writes reach a).
    @cujit.njit
    def f(x):
        v = x.value1
        w = x["value2"]
        v[1] = 42
        return v.sum(), w[2], x.arr.shape, x.arr[1, 1]

    a = field_host()
    assert f(a) == (47, 0.2, (4, 2), 4)
    assert a["value1"].tolist() == [0, 42, 2, 3]

    @cujit.njit
    def shapes(x):
        return x.value2.shape, x.arr.shape, x["arr"].strides

    assert shapes(np.zeros((2, 3), FIELDS)) == ((2, 3), (2, 3, 2), (72, 24, 4))

    @cujit.njit
    def packed_b(x):
        return x.b[1]  # a packed record's float64 field: misaligned items, read on the CPU as Numba

    p = np.zeros(3, np.dtype([("a", np.int8), ("b", np.float64)]))
    p["b"] = [1.5, 2.5, 3.5]
    assert packed_b(p) == 2.5


def test_kernel_record_array_field_views(target):
    # numba-cuda's test_cuda_ndarray::TestRecarray::test_recarray (np.recarray argument).
    a = np.recarray((16,), dtype=[("value1", np.int64), ("value2", np.float64)])
    a.value1 = np.arange(a.size, dtype=np.int64)
    a.value2 = np.arange(a.size, dtype=np.float64) / 100

    @cuda.jit
    def test(x, out1, out2):
        i = cuda.grid(1)
        if i < x.size:
            out1[i] = x.value1[i]
            out2[i] = x["value2"][i]
            x.value2[i] = -1.0

    got1 = np.zeros(16, np.int64)
    got2 = np.zeros(16)
    expect2 = a.value2.copy()
    test[1, a.size](a, got1, got2)
    assert got1.tolist() == list(range(16)) and got2.tolist() == expect2.tolist()
    assert a.value2.tolist() == [-1.0] * 16


def test_kernel_packed_field_view_refused(target):
    # GPU code cannot read misaligned items in place (numba-cuda refuses misaligned record
    # fields on the GPU: "... of type float64 is not aligned"); @jit code reads them (Numba's CPU).
    packed = np.zeros(3, np.dtype([("a", np.int8), ("b", np.float64)]))

    @cuda.jit
    def k(x, out):
        out[0] = x.b[0]

    with pytest.raises(cujit.errors.UnsupportedError, match="field 'b' of type float64 at offset 1 of a packed record of 9 bytes cannot be viewed"):
        k[1, 1](packed, np.zeros(1))


RECORD_2D = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])


def test_shared_and_local_arrays_of_records(target):
    # numba-cuda's test_sm::test_shared_recarray: a record type as cuda.shared.array's dtype.
    arr = np.recarray(128, dtype=RECORD_2D)
    for x in range(len(arr)):
        arr[x].i = x
        arr[x].j = np.arange(6, dtype=np.float32).reshape(3, 2) * x
    nthreads = 16
    dt = cujit.from_dtype(arr.dtype)

    @cuda.jit
    def use_sm_chunk_copy(x, y):
        sm = cuda.shared.array(nthreads, dtype=dt)
        tx = cuda.threadIdx.x
        bx = cuda.blockIdx.x
        bd = cuda.blockDim.x
        i = bx * bd + tx
        if i < len(x):
            sm[tx] = x[i]
        cuda.syncthreads()
        if tx == 0:
            for j in range(nthreads):
                y[bd * bx + j] = sm[j]

    d_result = cuda.device_array_like(arr)
    use_sm_chunk_copy[128 // nthreads, nthreads](arr, d_result)
    np.testing.assert_array_equal(arr, d_result.copy_to_host())

    np_dt = RECORD_2D  # a structured np.dtype global works the same

    @cuda.jit
    def local_copy(x, out):
        loc = cuda.local.array(2, np_dt)
        loc[0] = x[1]
        loc[1] = x[0]
        loc[0].i += 100
        out[0] = loc[0]
        out[1] = loc[1]

    out = np.zeros(2, RECORD_2D)
    local_copy[1, 1](arr[:2], out)
    assert out["i"].tolist() == [101, 0] and out["j"][0].tolist() == arr["j"][1].tolist()


def test_record_dtype_refused_outside_allocations():
    dt = cujit.from_dtype(RECORD_2D)

    @cujit.njit
    def make():
        return np.empty(3, dt)

    with pytest.raises(cujit.errors.UnsupportedError, match="of a record dtype is not supported"):
        make()

    @cujit.njit
    def call():
        return dt(1)

    with pytest.raises(cujit.errors.TypingError, match="cannot be called"):
        call()


def test_device_ndarray_constructor(target):
    # numba-cuda's DeviceNDArray(shape, strides, dtype): test_cuda_ndarray's relaxed strides and
    # issue 8477 (a zero-length array whose strides differ from its copy's).
    from cujit.cuda.cudadrv.devicearray import DeviceNDArray
    arr = DeviceNDArray((1, 10), (800, 8), np.float64)
    assert isinstance(arr, DeviceNDArray) and arr.shape == (1, 10) and arr.strides == (800, 8)
    assert arr.flags["C_CONTIGUOUS"] and arr.flags["F_CONTIGUOUS"]
    arr.copy_to_device(np.arange(10.0).reshape(1, 10))
    assert arr.copy_to_host().tolist() == [list(range(10))]
    dev = DeviceNDArray(shape=(0,), strides=(8,), dtype=np.int8)
    host = np.ndarray(shape=(0,), strides=(0,), dtype=np.int8)
    dev.copy_to_host(host)
    dev.copy_to_device(host)
    from_host = cuda.to_device(host)
    assert from_host.shape == (0,) and from_host.strides == (0,)  # numba-cuda keeps an empty array's strides
    dev.copy_to_device(from_host)
    from_host.copy_to_device(dev)
    with pytest.raises(ValueError, match="strides not match ndim"):
        DeviceNDArray((2, 2), (8,), np.float64)
    with pytest.raises(TypeError):
        DeviceNDArray.__new__(DeviceNDArray)  # no array without a shape
