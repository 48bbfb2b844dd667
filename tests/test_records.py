"""Records: structured NumPy dtypes as array dtypes and record values (Numba's Record type).
Expected values were taken from Numba 0.68 (@jit) and numba-cuda 0.30 running the same code."""
import numpy as np
import pytest

import cujit
from cujit import cuda, njit
from cujit.errors import TypingError, UnsupportedError

PACKED = np.dtype([("x", np.int32), ("y", np.float64), ("arr", "u1", (5,)), ("m", "<f4", (3, 2))])
# The same fields where GPU code may read them: numba-cuda refuses a field whose offset its type's
# alignment does not divide (y at 4, m's float32 items at 17). Packed still: at itemsize 44 the
# second element's y sits at byte 44, which GPU code reads byte by byte.
PACKED_GPU = np.dtype([("y", np.float64), ("x", np.int32), ("arr", "u1", (5,)), ("pad", "u1", (3,)), ("m", "<f4", (3, 2))])
INNER = np.dtype([("p", np.int8), ("q", np.float64)], align=True)
OUTER = np.dtype([("a", np.int16), ("inner", INNER), ("b", np.uint8)], align=True)
WITH_COMPLEX = np.dtype([("a", np.float64), ("c", np.complex64)], align=True)
WITH_STRING = np.dtype([("a", np.float64), ("c", "U2")], align=True)


def test_record_type_spelling():
    # Numba's spelling, field by field (offsets, nested arrays and records, size, aligned).
    assert cujit.from_dtype(PACKED).name == (
        "Record(x[type=int32;offset=0],y[type=float64;offset=4],arr[type=nestedarray(uint8, (5,));offset=12],"
        "m[type=nestedarray(float32, (3, 2));offset=17];41;False)")
    assert cujit.from_dtype(OUTER).name == (
        "Record(a[type=int16;offset=0],inner[type=Record(p[type=int8;offset=0],q[type=float64;offset=8];16;True);"
        "offset=8],b[type=uint8;offset=24];32;True)")
    assert cujit.typeof(np.zeros(2, OUTER)[0]) == cujit.from_dtype(OUTER)
    assert str(cujit.from_dtype(INNER)[:]) == "array(Record(p[type=int8;offset=0],q[type=float64;offset=8];16;True), 1d, A)"


def test_jit_fields_nested_arrays_write_through():
    @njit
    def f(a, i):
        r = a[i]          # a reference to the element: writes reach the array
        r.x = 3
        r["y"] = r.x * 1.5
        for j in range(len(r.arr)):
            r.arr[j] = j + i
        r.m[1, 1] = 2.5
        return r.y + r.arr[4] + r.m.shape[0] + r.m.shape[1]

    a = np.zeros(3, PACKED)
    assert f(a, 1) == 14.5
    assert a[1]["x"] == 3 and a[1]["y"] == 4.5
    assert a[1]["arr"].tolist() == [1, 2, 3, 4, 5]
    assert a[1]["m"].tolist() == [[0.0, 0.0], [0.0, 2.5], [0.0, 0.0]]
    assert a[0].tobytes() == bytes(41) and a[2].tobytes() == bytes(41)


def test_jit_nested_aligned_records():
    @njit
    def g(o):
        s = 0.0
        for k in range(o.shape[0]):
            o[k].inner.q = k * 0.5
            o[k]["inner"]["p"] = k - 1
            s += o[k].inner.q + o[k].inner.p
        o[0].b = 300  # converted as Numba converts: 44
        return s

    o = np.zeros(3, OUTER)
    assert g(o) == 1.5
    assert o["inner"]["p"].tolist() == [-1, 0, 1]
    assert o["inner"]["q"].tolist() == [0.0, 0.5, 1.0]
    assert o["b"].tolist() == [44, 0, 0]


def test_jit_record_copy_index_iteration_itemsize():
    @njit
    def h(a):
        a[0] = a[2]           # the whole record's bytes
        a[1].x = 2.7          # truncated into int32
        return a[0].x, a[1][0], a[2][1]

    @njit
    def total(a):
        t = 0
        for r in a:
            t += r.x
        return t

    @njit
    def sizes(a):
        return a.itemsize, a.nbytes, a.size

    a = np.zeros(3, PACKED)
    a[2]["x"] = 9
    a[2]["y"] = 1.25
    assert h(a) == (9, 2, 1.25)
    assert a[0].tobytes() == a[2].tobytes()
    assert total(a) == 20
    assert sizes(a) == (41, 123, 3)


def test_jit_fill_and_copy_nested_arrays():
    @njit
    def fill(a, v):
        a[0].arr[:] = v
        a[1].m[:, :] = np.ones((3, 2))
        a[2]["arr"] = a[0].arr

    a = np.zeros(3, PACKED)
    assert fill(a, 7) is None
    assert a[0]["arr"].tolist() == [7] * 5 and a[2]["arr"].tolist() == [7] * 5
    assert a[1]["m"].tolist() == [[1.0, 1.0]] * 3


def test_jit_record_argument_is_a_reference():
    @njit
    def bump(r):
        r.x += 5
        return r.x

    a = np.zeros(3, PACKED)
    assert bump(a[1]) == 5
    assert a["x"].tolist() == [0, 5, 0]  # Numba passes the record's own bytes


def test_jit_returns_a_record_copy():
    @njit
    def first(a):
        return a[0]

    a = np.zeros(2, OUTER)
    a[0]["inner"]["q"] = 2.5
    r = first(a)
    assert isinstance(r, np.record)
    assert (r["a"], r["inner"]["p"], r["inner"]["q"], r["b"]) == (0, 0, 2.5, 0)
    a[0]["inner"]["q"] = 1.0
    assert r["inner"]["q"] == 2.5  # a copy


def test_complex_field_reads_as_complex():
    @njit
    def read_a(r):
        return r.a

    @njit
    def read_c(r):
        return r.c

    a = np.zeros(1, WITH_COMPLEX)
    a[0]["a"] = 1.5
    a[0]["c"] = 1 + 2j
    assert read_a(a[0]) == 1.5
    assert read_c(a[0]) == 1 + 2j  # complex64 field (Numba returns a Python complex)


def test_string_field_is_returned_as_str():
    @njit
    def read_a(r):
        return r.a

    @njit
    def read_c(r):
        return r.c

    a = np.zeros(1, WITH_STRING)
    a[0]["a"] = 1.5
    a[0]["c"] = "hé"
    assert read_a(a[0]) == 1.5
    assert read_c(a[0]) == "hé"  # a str, as Numba returns it (more in test_record_strings.py)


def test_jit_unknown_field():
    @njit
    def f(a):
        return a[0].z

    with pytest.raises(TypingError, match="Record has no field 'z'"):
        f(np.zeros(1, INNER))


def test_kernel_fields_and_records(target):
    @cuda.jit(device=True)
    def pick(a, i):
        return a[i]

    @cuda.jit
    def k(a, out, v):
        i = cuda.grid(1)
        if i < a.shape[0]:
            r = a[i]
            r.x = i * 10
            r.y = v + i
            r.arr[i] = 1
            r.m[i, 1] = r.y
        if i == 0:
            out[0] = pick(a, i)  # a record returned by a device function, stored whole

    a = np.zeros(3, PACKED_GPU)
    out = np.zeros(1, PACKED_GPU)
    k[1, 3](a, out, 0.5)
    assert a["x"].tolist() == [0, 10, 20]
    assert a["y"].tolist() == [0.5, 1.5, 2.5]
    assert a["arr"].tolist() == [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0]]
    assert a["m"][:, :, 1].tolist() == [[0.5, 0.0, 0.0], [0.0, 1.5, 0.0], [0.0, 0.0, 2.5]]
    assert out[0].tobytes() == a[0].tobytes()


def test_kernel_misaligned_nested_array_is_refused(target):
    # m's float32 items sit at offset 17 of a 41-byte packed record: GPU code refuses to read
    # them in place (they would fault on the GPU), the simulator likewise; numba-cuda's message
    # (its CUDA target refuses a field at an offset its type's alignment does not divide).
    @cuda.jit
    def k(a):
        a[0].m[0, 0] = 1.0

    with pytest.raises(TypingError, match=r"Record\(x.*;41;False\)\.m of type float32 is not aligned"):
        k[1, 1](np.zeros(2, PACKED))
    # At an aligned offset, in a record whose size leaves the next elements' items misaligned.
    odd = np.dtype([("m", "<f4", (2,)), ("c", "u1")])

    @cuda.jit
    def k2(a):
        a[1].m[0] = 1.0

    with pytest.raises(UnsupportedError, match="field 'm' is an array of float32 at offset 0 of a packed record of 9"):
        k2[1, 1](np.zeros(2, odd))


def test_kernel_record_argument_writes_back(target):
    # numba-cuda passes a record scalar by reference (copied in and back on the GPU).
    @cuda.jit
    def k(r, out):
        out[0] = r.inner.q
        r.inner.p = 7
        r["b"] = 3

    a = np.zeros(2, OUTER)
    a[1]["inner"]["q"] = 4.5
    out = np.zeros(1)
    k[1, 1](a[1], out)
    assert out[0] == 4.5
    assert a[1]["inner"]["p"] == 7 and a[1]["b"] == 3
    assert a[0].tobytes() == bytes(32)


CONST_RECORD = np.array([(1.0, 2), (3.0, 4)], dtype=[("x", float), ("y", int)])
CONST_RECORD_ALIGN = np.array([(1, 2, 3, 0xDEADBEEF, 8), (4, 5, 6, 0xBEEFDEAD, 10)],
                              dtype=np.dtype([("a", np.uint8), ("b", np.uint8), ("x", np.uint8), ("y", np.uint32),
                                              ("z", np.uint8)], align=True))


def test_constant_record_arrays(target):
    @cuda.jit
    def k(A, B, D):
        C = cuda.const.array_like(CONST_RECORD)
        Z = CONST_RECORD_ALIGN
        i = cuda.grid(1)
        A[i] = C[i]["x"]
        B[i] = C[i].y
        D[i] = Z[i]["y"] + Z[i].z

    A, B, D = np.zeros(2), np.zeros(2, np.int64), np.zeros(2, np.int64)
    k[2, 1](A, B, D)
    assert A.tolist() == [1.0, 3.0] and B.tolist() == [2, 4]
    assert D.tolist() == [0xDEADBEEF + 8, 0xBEEFDEAD + 10]


def test_jit_constant_record_array_is_read_only():
    @njit
    def read(i):
        return CONST_RECORD[i].x + CONST_RECORD[i]["y"]

    @njit
    def write():
        CONST_RECORD[0].x = 5.0

    assert read(1) == 7.0
    with pytest.raises(TypingError, match="Cannot modify a record of a readonly array"):
        write()


def test_jit_read_only_argument_records():
    @njit
    def write(a):
        a[0] = a[1]

    a = np.zeros(2, OUTER)
    a.flags.writeable = False
    with pytest.raises(TypingError, match="Cannot modify readonly array of type: readonly array"):
        write(a)
