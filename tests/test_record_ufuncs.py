"""Records in ufuncs. numba-cuda 0.30 refuses a record in a CUDA @vectorize or @guvectorize
signature: it makes a NumPy dtype of each argument type's name (np.dtype(str(t))), which a
record's is not, so NumPy's ValueError 'format number 1 of "Record(...)" is not recognized'
comes out when the signature is added (its simulator fails otherwise, on its own API). cujit
raises the same ValueError on the simulator and the GPU. A record array passed to a CUDA ufunc
of numbers matches no loop. Numba's CPU ufuncs take records as inputs but hand a loop any void
data unchecked (another structured dtype reads garbage: pinned below with real Numba 0.68's
numbers); cujit's CPU ufuncs and gufuncs with record signatures check each record argument's
dtype and go to the signature whose record it is, or raise TypeError."""
import numpy as np
import pytest

import cujit
from cujit import cuda, float64, guvectorize, vectorize

REC = np.dtype([("a", np.float64), ("b", np.int32)], align=True)
NOT_RECOGNIZED = r'format number 1 of "Record\(a\[type=float64;offset=0\],b\[type=int32;offset=8\];16;True\)" is not recognized'


def test_cuda_vectorize_refuses_a_record_signature(target):
    rec = cujit.from_dtype(REC)
    with pytest.raises(ValueError, match=NOT_RECOGNIZED):
        @vectorize([float64(rec)], target="cuda")
        def f(r):
            return r.a + r.b


@pytest.mark.parametrize("sig", ["array", "scalar"])
def test_cuda_guvectorize_refuses_a_record_signature(target, sig):
    rec = cujit.from_dtype(REC)
    with pytest.raises(ValueError, match=NOT_RECOGNIZED):
        if sig == "array":
            @guvectorize([(rec[:], float64[:])], "(n)->(n)", target="cuda")
            def g(r, out):
                for i in range(r.shape[0]):
                    out[i] = r[i].a
        else:
            @guvectorize([(rec, float64[:])], "()->()", target="cuda")
            def h(r, out):
                out[0] = r.a


def test_cuda_ufunc_of_numbers_refuses_a_record_array(target):
    @vectorize([float64(float64)], target="cuda")
    def f(x):
        return x + 1

    with pytest.raises(TypeError):
        f(np.zeros(3, REC))


REC_B = np.dtype([("b", np.int32), ("a", np.float64)])  # the same fields, another layout


def _records(dtype):
    arr = np.zeros(4, dtype)
    arr["a"] = np.arange(4) * 1.5
    arr["b"] = np.arange(4)
    return arr


def test_cpu_vectorize_of_records_reads_fields_as_numba():
    rec = cujit.from_dtype(REC)

    @vectorize([float64(rec)])
    def f(r):
        return r.a * 2 + r.b

    arr = _records(REC)
    np.testing.assert_array_equal(f(arr), [0.0, 4.0, 8.0, 12.0])  # Numba 0.68's result
    np.testing.assert_array_equal(f(arr[::2]), [0.0, 8.0])
    assert f(arr[1]) == 4.0  # a record scalar (np.void)
    assert f.types == ["V->d"] and f.nin == 1 and f.nout == 1


def test_cpu_vectorize_refuses_a_record_of_another_layout():
    # Numba 0.68 reads REC_B's bytes as REC: [0.0, 1.07321754e+09, 1.07426611e+09, 1.07492147e+09]
    rec = cujit.from_dtype(REC)

    @vectorize([float64(rec)])
    def f(r):
        return r.a * 2 + r.b

    with pytest.raises(TypeError, match="must have exactly the dtype of the signature's record"):
        f(_records(REC_B))
    with pytest.raises(TypeError, match="must have exactly the dtype"):
        f(np.arange(3.0))


def test_cpu_vectorize_picks_the_signature_of_the_records_layout():
    r1, r2 = cujit.from_dtype(REC), cujit.from_dtype(REC_B)

    @vectorize([float64(r1, float64), float64(r2, float64)])
    def scaled(r, k):
        r.a = 100.0  # the loop's copy: the input array keeps its values
        return r.a * k + r.b

    one, two = _records(REC), _records(REC_B)
    np.testing.assert_array_equal(scaled(one, 2.0), [200.0, 201.0, 202.0, 203.0])
    np.testing.assert_array_equal(scaled(two, 3.0), [300.0, 301.0, 302.0, 303.0])
    np.testing.assert_array_equal(one["a"], np.arange(4) * 1.5)
    np.testing.assert_array_equal(two["a"], np.arange(4) * 1.5)
    assert scaled.ntypes == 2


def test_cpu_guvectorize_of_records():
    rec = cujit.from_dtype(REC)

    @guvectorize([(rec[:], float64[:])], "(n)->(n)")
    def g(r, out):
        for i in range(r.shape[0]):
            out[i] = r[i].a * 2 + r[i].b

    arr = _records(REC)
    np.testing.assert_array_equal(g(arr), [0.0, 4.0, 8.0, 12.0])  # Numba 0.68's result
    np.testing.assert_array_equal(g(arr.reshape(2, 2)), [[0.0, 4.0], [8.0, 12.0]])
    with pytest.raises(TypeError, match="must have exactly the dtype"):
        g(_records(REC_B))

    # a record scalar per element ('()'), which Numba 0.68 fails to build (an LLVM type error)
    @guvectorize([(rec, float64[:])], "()->()")
    def g2(r, out):
        out[0] = r.a * 2 + r.b

    np.testing.assert_array_equal(g2(arr), [0.0, 4.0, 8.0, 12.0])

    # stores into an input record array reach it, as Numba's
    @guvectorize([(rec[:], float64[:])], "(n)->()")
    def fill(r, out):
        for i in range(r.shape[0]):
            r[i].a = i * 10.0
        out[0] = 0

    fill(arr)
    np.testing.assert_array_equal(arr["a"], [0.0, 10.0, 20.0, 30.0])


def test_cpu_vectorize_returning_the_first_arguments_record():
    rec = cujit.from_dtype(REC)

    @vectorize([rec(rec, float64)])
    def setx(r, v):
        r.a = v
        return r

    arr = _records(REC)
    got = setx(arr, np.array([5.0, 6.0, 7.0, 8.0]))
    assert got.dtype == REC
    np.testing.assert_array_equal(got["a"], [5.0, 6.0, 7.0, 8.0])  # Numba 0.68's values
    np.testing.assert_array_equal(got["b"], [0, 1, 2, 3])
    np.testing.assert_array_equal(arr["a"], np.arange(4) * 1.5)  # the input is not written
    assert setx(arr[2], 9.0)["a"] == 9.0
    with pytest.raises(TypeError, match="out= is not supported for a ufunc whose result is a record"):
        setx(arr, 1.0, out=np.zeros(4, REC))


def test_cpu_ufuncs_refuse_records_as_outputs_and_without_signatures():
    rec = cujit.from_dtype(REC)
    with pytest.raises(TypeError, match="a record as an output of a CPU ufunc is supported only"):
        @vectorize([rec(float64, rec)])
        def second(v, r):
            return r
    with pytest.raises(TypeError, match="a record as an output of a CPU gufunc is supported only"):
        @guvectorize([(float64[:], rec[:])], "(n)->(n)")
        def out_rec(x, r):
            for i in range(x.shape[0]):
                r[i].a = x[i]

    @vectorize
    def lazy(r):
        return r.a * 2

    with pytest.raises(TypeError, match="take records only with signatures given to the decorator"):
        lazy(np.zeros(4, REC))

    @vectorize([float64(rec)])
    def f(r):
        return r.a

    with pytest.raises(TypeError, match="not supported by a CPU ufunc with record signatures"):
        f.reduce(np.zeros(4, REC))
