"""Records in ufuncs. numba-cuda 0.30 refuses a record in a CUDA @vectorize or @guvectorize
signature: it makes a NumPy dtype of each argument type's name (np.dtype(str(t))), which a
record's is not, so NumPy's ValueError 'format number 1 of "Record(...)" is not recognized'
comes out when the signature is added (its simulator fails otherwise, on its own API). cujit
raises the same ValueError on the simulator and the GPU. A record array passed to a CUDA ufunc
of numbers matches no loop. Numba's CPU ufuncs take records but hand a loop any void data
unchecked (another structured dtype, or plain bytes, reads garbage); cujit's CPU ufuncs refuse
records for now, with a TypeError that says so."""
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


@pytest.mark.parametrize("kind", ["vectorize", "guvectorize", "lazy vectorize"])
def test_cpu_ufuncs_refuse_records_clearly(kind):
    rec = cujit.from_dtype(REC)
    arr = np.zeros(4, REC)
    with pytest.raises(TypeError, match="CPU @vectorize/@guvectorize do not take records yet"):
        if kind == "vectorize":
            @vectorize([float64(rec)])
            def f(r):
                return r.a + r.b
        elif kind == "guvectorize":
            @guvectorize([(rec[:], float64[:])], "(n)->(n)")
            def g(r, out):
                for i in range(r.shape[0]):
                    out[i] = r[i].a
        else:
            @vectorize
            def h(r):
                return r.a * 2

            h(arr)
