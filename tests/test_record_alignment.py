"""Records whose fields are misaligned for the GPU (numba-cuda's cudapy/test_alignment.py): its
CUDA target refuses, when it compiles the access, a record field whose offset the field type's
alignment does not divide, with NumbaTypeError (a TypingError) "<Record>.<field> of type <type>
is not aligned"; cujit refuses the same on the GPU and the simulator (numba-cuda's simulator
checks nothing), and @jit code reads such fields as Numba's CPU target does."""
import numpy as np
import pytest

import cujit
from cujit import cuda, njit
from cujit.errors import TypingError

PACKED = np.dtype([("a", "int32"), ("b", "float64")])
PACKED_SPELLING = r"Record\(a\[type=int32;offset=0\],b\[type=float64;offset=4\];12;False\)"


def test_aligned_record_signature_accepted(target):
    rec_dtype = np.dtype([("a", "int32"), ("b", "float64")], align=True)

    @cuda.jit((cujit.from_dtype(rec_dtype)[:],))
    def foo(a):
        i = cuda.grid(1)
        a[i].a = a[i].b

    r = np.recarray(3, dtype=rec_dtype)
    r.a = 0
    r.b = [123, 246, 369]
    foo[1, 3](r)
    assert r.a.tolist() == [123, 246, 369]


def test_misaligned_field_refused_at_decoration(target):
    # numba-cuda's test_record_alignment_error: an eager signature fails when decorated.
    with pytest.raises(TypingError, match=PACKED_SPELLING + r"\.b of type float64 is not aligned"):
        @cuda.jit((cujit.from_dtype(PACKED)[:],))
        def foo(a):
            i = cuda.grid(1)
            a[i].a = a[i].b


@pytest.mark.parametrize("body", ["o[0] = a[0].b", "o[0] = a[0]['b']", "o[0] = a[0][1]",
                                  "a[0].b = 1.0", "a[0]['b'] = 1.0", "r = a[0]\n    r.b = 2.0"])
def test_every_access_of_a_misaligned_field_refused(target, body):
    ns = {"cuda": cuda}
    exec("def k(a, o):\n    %s\n" % body, ns)
    k = cuda.jit(ns["k"])
    with pytest.raises(TypingError, match=r"\.b of type float64 is not aligned"):
        k[1, 1](np.zeros(2, PACKED), np.zeros(1))


def test_aligned_fields_of_a_packed_record_read(target):
    # Only the misaligned field is refused: a (offset 0) reads; so does a packed record whose
    # float64 sits at offset 0, though the next element's is at byte 12 (read byte by byte).
    first = np.dtype([("b", "float64"), ("a", "int32")])

    @cuda.jit
    def k(p, q, o):
        i = cuda.grid(1)
        o[i] = p[i].a + q[i].b + q[i]["a"]
        q[i].b = o[i] * 2

    p = np.zeros(3, PACKED)
    p["a"] = [1, 2, 3]
    q = np.zeros(3, first)
    q["b"] = [0.5, 1.5, 2.5]
    q["a"] = [10, 20, 30]
    o = np.zeros(3)
    k[1, 3](p, q, o)
    assert o.tolist() == [11.5, 23.5, 35.5]
    assert q["b"].tolist() == [23.0, 47.0, 71.0]


def test_jit_reads_misaligned_fields():
    # Numba's CPU target has no strict alignment: the same access compiles and reads the value.
    @njit
    def f(a):
        a[1].a = int(a[1].b)
        return a[0].b + a[1]["b"]

    a = np.zeros(2, PACKED)
    a["b"] = [1.25, 7.5]
    assert f(a) == 8.75
    assert a["a"].tolist() == [0, 7]
