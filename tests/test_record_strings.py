"""Records' string fields ('S' bytes and 'U' str: Numba's CharSeq and UnicodeCharSeq) in kernels,
device functions and @jit code. Expected values from numba-cuda 0.30 (its test_const_string's
record tests, and its simulator for reads and comparisons) and Numba 0.68 running the same code."""
import numpy as np
import pytest

from cujit import cuda, njit
from cujit.errors import TypingError, UnsupportedError

REC = np.dtype([("x", np.int32), ("y", "U4"), ("z", "S3")])


def sample():
    a = np.zeros(3, REC)
    a[0] = (1, "AB", b"ab")
    a[1] = (2, "ABC", b"abc")
    a[2] = (3, "héé", b"b")
    return a


def test_store_literals_into_string_fields(target):
    # numba-cuda's test_assign_const_string_in_record / test_assign_const_bytes_in_record.
    @cuda.jit
    def f(a):
        a[0]["x"] = 1
        a[0]["y"] = "ABC"
        a[1]["x"] = 2
        a[1]["y"] = "XYZ"

    dt = np.dtype([("x", np.int32), ("y", np.dtype("<U12"))])
    a = np.zeros(2, dt)
    f[1, 1](a)
    np.testing.assert_array_equal(a, np.asarray([(1, "ABC"), (2, "XYZ")], dtype=dt))

    @cuda.jit
    def g(a):
        a[0]["x"] = 1
        a[0]["y"] = b"ABC"
        a[1]["x"] = 2
        a[1]["y"] = b"XYZ"

    dt = np.dtype([("x", np.float32), ("y", np.dtype("S12"))])
    a = np.zeros(2, dt)
    g[1, 1](a)
    np.testing.assert_array_equal(a, np.asarray([(1, b"ABC"), (2, b"XYZ")], dtype=dt))


def test_store_truncates_pads_and_copies_fields(target):
    @cuda.jit
    def k(a):
        a[0].y = "héllo wörld"  # cut to the field's 4 code points
        a[1].z = b"x"           # NUL-padded
        a[2].y = a[1].y         # one record's field into another's

    a = sample()
    k[1, 1](a)
    assert a.tolist() == [(1, "héll", b"ab"), (2, "ABC", b"x"), (3, "ABC", b"b")]


def test_read_compare_and_len(target):
    @cuda.jit(device=True)
    def length(s):
        return len(s)

    @cuda.jit
    def k(a, out):
        x = a[0].y
        out[0] = x == "AB"
        out[1] = a[1].y < a[0].y
        out[2] = a[0].y < a[1].y
        out[3] = a[2].y == "héé"
        out[4] = a[0].z != b"ab"
        out[5] = a[1].z >= a[2].z
        out[6] = length(a[1].y)
        out[7] = len(a[2].z)
        out[8] = a[0]["y"] == a[0].y

    out = np.zeros(9, np.int64)
    k[1, 1](sample(), out)
    assert out.tolist() == [1, 0, 1, 1, 0, 0, 3, 1, 1]


def test_jit_string_fields():
    @njit
    def g(a):
        a[0].y = "Q"
        return a[1].y == "ABC", len(a[2].z), a[0]["y"] > a[1]["y"]

    a = sample()
    assert g(a) == (True, 1, True)
    assert a[0]["y"] == "Q"


def test_string_field_refusals():
    @njit
    def mixed(a):
        a[0].y = a[0].z

    with pytest.raises(TypingError, match=r"cannot store a \[char x 3\] into a record field of type \[unichr x 4\]"):
        mixed(sample())

    @njit
    def other(a):
        return a[0].y == 1

    with pytest.raises(TypingError, match=r"'==' is not supported between \[unichr x 4\] and int64"):
        other(sample())

    @njit
    def with_nul(a):
        return a[1].y == "ABC\x00"

    with pytest.raises(UnsupportedError, match="NUL character"):
        with_nul(sample())

    @njit
    def view(a):
        return a.y

    with pytest.raises(UnsupportedError, match=r"field 'y' of type \[unichr x 4\] cannot be viewed as an array"):
        view(sample())



def test_kernel_substring_test_is_refused(target):
    @cuda.jit
    def contains(a, out):
        out[0] = "B" in a[1].y  # numba-cuda makes strs for it, which GPU code cannot

    with pytest.raises(UnsupportedError, match="'in' is not supported on a record's string field"):
        contains[1, 1](sample(), np.zeros(1, np.int64))


def test_bytes_literals_elsewhere_are_refused():
    @njit
    def index():
        x = b"ab"
        return x[0]

    with pytest.raises(TypingError, match=r"'\[char x 2\]' object is not subscriptable"):
        index()

    @njit
    def text():
        return b"ab" == "ab"

    with pytest.raises(TypingError, match="is not supported between"):
        text()


def test_jit_fields_against_str_values_and_returned():
    # Numba 0.68: a 'U' field compares with any str, `in` tests a substring, and a field returned
    # is a str ('U', up to its last non-NUL character) or bytes ('S').
    @njit
    def count(a, s):
        n = 0
        for i in range(len(a)):
            if a[i].y == s:
                n += 1
        return n, a[0].y < s, s <= a[1].y, a[2].y != s, s in a[1].y

    assert count(sample(), "ABC") == (1, True, True, True, True)
    assert count(sample(), "héé") == (1, True, False, False, False)
    assert count(sample(), "") == (0, False, True, True, True)

    @njit
    def fields(a, i):
        return a[i].y, a[i].z

    @njit
    def as_str(a, i):
        return str(a[i].y) + "!"

    assert as_str(sample(), 2) == "héé!"

    assert [fields(sample(), i) for i in range(3)] == [("AB", b"ab"), ("ABC", b"abc"), ("héé", b"b")]


def test_device_arrays_and_device_records_with_string_fields(target):
    @cuda.jit
    def k(a, r, out):
        out[0] = a[1].y == "ABC"
        out[1] = len(r.z)
        r.y = "Zé"
        a[0].z = r.z

    d = cuda.to_device(sample())
    out = np.zeros(2, np.int64)
    rec = d[2]  # numba-cuda's DeviceRecord: the kernel's writes land in the array
    k[1, 1](d, rec, out)
    assert out.tolist() == [1, 1]
    assert d.copy_to_host().tolist() == [(1, "AB", b"b"), (2, "ABC", b"abc"), (3, "Zé", b"b")]
    assert rec["y"] == "Zé"  # the field read through a host copy of the record
