"""Read-only memory is never written (issue 16). As in Numba, an array that enters compiled code
read-only (a NumPy argument with flags.writeable False, a read-only __cuda_array_interface__ or
DLPack tensor, a global constant array, and every view of those) is typed `readonly array(...)`,
and a store into it is a TypingError at the user's line: "Cannot modify readonly array of type:
readonly array(uint8, 1d, C)" (Numba 0.68's wording). The runtime's own write paths (ufunc out=,
gufunc outputs, cuda.reduce res=, copies, __setitem__) refuse read-only destinations with a
ValueError before writing anything. The programs of tests/errors/readonly_*.py pin the carets."""
import numpy as np
import pytest

from cujit import cuda, guvectorize, njit, vectorize
from cujit.errors import TypingError

MSG = "Cannot modify readonly array of type: "


def readonly(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


class ReadOnlyInterface:
    """Another library's read-only GPU array: a __cuda_array_interface__ whose data[1] is True."""

    def __init__(self, d):
        self.keep = d
        cai = dict(d.__cuda_array_interface__)
        cai["data"] = (cai["data"][0], True)
        self.__cuda_array_interface__ = cai


def readonly_device(target, host):
    """(a read-only device array over `host`'s values, a function reading its memory back)."""
    if target == "sim":  # simulator arrays have no __cuda_array_interface__; DLPack keeps the flag
        h = readonly(host)
        return cuda.from_dlpack(h), lambda: h.copy()
    d = cuda.to_device(np.array(host))
    return cuda.as_cuda_array(ReadOnlyInterface(d)), d.copy_to_host


# ---- @jit: the reproducer and every kind of store -------------------------------------

def test_jit_store_into_frombuffer_is_refused_and_bytes_literal_survives():
    @njit
    def poke(a):
        a[0] = 65

    a = np.frombuffer(b"z", np.uint8)
    with pytest.raises(TypingError) as e:
        poke(a)
    assert MSG + "readonly array(uint8, 1d, C)" in str(e.value)
    assert bytes(a) == b"z" and b"z"[0] == 122


def test_jit_read_only_argument_can_be_read():
    @njit
    def first(a):
        return a[0] + 1

    a = np.frombuffer(b"z", np.uint8)
    assert first(a) == 123
    assert first(np.array([1], np.uint8)) == 2
    # Two specialisations: the writeable and the read-only type (Numba's spelling).
    assert first._signatures == [["readonly array(uint8, 1d, C)"], ["array(uint8, 1d, C)"]]


def _store(a):
    a[0] = 1


def _augmented(a):
    a[0] += 1


def _fill_slice(a):
    a[:] = 1


def _copy_slice(a):
    a[1:3] = a[0:2]


def _view_store(a):
    b = a[1:]
    b[0] = 1


def _alias_store(a):
    b = a
    b[0] = 1


@pytest.mark.parametrize("fn", [_store, _augmented, _fill_slice, _copy_slice, _view_store, _alias_store])
def test_jit_every_store_form_is_refused(fn):
    a = readonly(np.arange(4.0))
    with pytest.raises(TypingError, match=MSG):
        njit(fn)(a)
    np.testing.assert_array_equal(a, np.arange(4.0))


def test_jit_2d_row_views_and_loops_stay_read_only():
    @njit
    def row_store(a):
        a[0][1] = 5

    @njit
    def loop_store(a):
        for row in a:
            row[0] = 1

    a = readonly(np.zeros((2, 2)))
    with pytest.raises(TypingError, match=r"readonly array\(float64, 1d, C\)"):
        row_store(a)
    with pytest.raises(TypingError, match=MSG):
        loop_store(a)
    assert not a.any()


def test_jit_unify_with_writeable_array_is_read_only():
    @njit
    def f(a, c):
        b = a
        if c:
            b = np.zeros(2)
        b[0] = 1.0

    with pytest.raises(TypingError, match=MSG):
        f(readonly(np.zeros(2)), True)


def test_jit_callee_that_stores_is_refused():
    @njit
    def store(x):
        x[0] = 7

    @njit
    def caller(a):
        store(a)

    a = readonly(np.zeros(3, np.int64))
    with pytest.raises(TypingError, match=MSG):
        caller(a)
    assert not a.any()
    w = np.zeros(3, np.int64)
    caller(w)
    assert w[0] == 7


def test_jit_writeable_then_read_only_gets_its_own_specialisation():
    @njit
    def f(a):
        a[0] = 9

    w = np.zeros(2)
    f(w)
    assert w[0] == 9
    with pytest.raises(TypingError, match=MSG):
        f(readonly(np.zeros(2)))


def test_jit_declared_signature_does_not_take_a_read_only_array():
    # Numba: "No matching definition for argument type(s) readonly array(uint8, 1d, C)".
    @njit("uint8(uint8[:])")
    def f(a):
        return a[0]

    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) readonly array\(uint8, 1d, C\)"):
        f(np.frombuffer(b"z", np.uint8))
    assert f(np.array([3], np.uint8)) == 3


def test_jit_returned_view_of_read_only_argument_stays_read_only():
    @njit
    def tail(a):
        return a[1:]

    r = tail(readonly(np.arange(3.0)))
    assert not r.flags.writeable


def test_jit_results_typed_read_only_are_read_only():
    # Numba boxes a read-only array type as a read-only array: also a global array returned (a
    # copy here), and a read-only view whose memory lies in another, writeable argument.
    table = np.arange(3.0)

    @njit
    def whole():
        return table

    @njit
    def first(a, b):
        return a[1:]

    g = whole()
    assert not g.flags.writeable
    np.testing.assert_array_equal(g, [0, 1, 2])
    w = np.arange(4.0)
    v = w[:]
    v.flags.writeable = False
    assert not first(v, w).flags.writeable


def test_jit_global_array_is_read_only():
    table = np.arange(3.0)

    @njit
    def f():
        table[0] = 3.0

    with pytest.raises(TypingError, match=r"readonly array\(float64, 1d, C\)"):
        f()


def test_jit_copy_of_read_only_array_is_writeable():
    @njit
    def f(a):
        b = a.copy()
        b[0] = 1
        return b

    assert list(f(np.frombuffer(b"zz", np.uint8))) == [1, 122]


# ---- kernels ----------------------------------------------------------------------------------

def test_kernel_store_into_read_only_host_array(target):
    @cuda.jit
    def poke(a):
        a[0] = 65

    a = np.frombuffer(b"z", np.uint8)
    with pytest.raises(TypingError, match=r"readonly array\(uint8, 1d, C\)"):
        poke[1, 1](a)
    assert bytes(a) == b"z"


def test_kernel_reads_read_only_host_array(target):
    @cuda.jit
    def copy(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i] = a[i] * 2

    a = readonly(np.arange(5, dtype=np.float32))
    out = np.zeros(5, np.float32)
    copy[1, 8](a, out)
    np.testing.assert_array_equal(out, np.arange(5) * 2)
    assert not a.flags.writeable


def _atomic_add(a):
    cuda.atomic.add(a, 0, 1)


def _atomic_max(a):
    cuda.atomic.max(a, 0, 1)


def _atomic_cas(a):
    cuda.atomic.cas(a, 0, 0, 1)


def _atomic_compare_and_swap(a):
    cuda.atomic.compare_and_swap(a, 0, 1)


def _slice_fill(a):
    a[0:2] = 1


@pytest.mark.parametrize("fn", [_atomic_add, _atomic_max, _atomic_cas, _atomic_compare_and_swap, _slice_fill])
def test_kernel_atomics_and_slices_on_read_only(target, fn):
    a = readonly(np.zeros(4, np.int32))
    with pytest.raises(TypingError, match=r"readonly array\(int32, 1d, C\)"):
        cuda.jit(fn)[1, 1](a)
    assert not a.any()


def test_kernel_device_function_store(target):
    @cuda.jit(device=True)
    def store(x):
        x[0] = 1

    @cuda.jit
    def k(a):
        store(a)

    a = readonly(np.zeros(2))
    with pytest.raises(TypingError, match=MSG):
        k[1, 1](a)
    assert not a.any()


def test_kernel_read_only_device_array(target):
    @cuda.jit
    def poke(a):
        a[0] = 5

    @cuda.jit
    def read(a, out):
        out[0] = a[1]

    d, back = readonly_device(target, np.arange(3, dtype=np.float32))
    assert d._readonly
    with pytest.raises(TypingError, match=r"readonly array\(float32, 1d, C\)"):
        poke[1, 1](d)
    with pytest.raises(TypingError, match=r"readonly array\(float32, 1d, A\)"):
        poke[1, 1](d[::2])  # a view stays read-only
    out = cuda.to_device(np.zeros(1, np.float32))
    read[1, 1](d, out)
    assert out.copy_to_host()[0] == 1
    np.testing.assert_array_equal(back(), [0, 1, 2])


def test_kernel_launch_plan_tells_read_only_apart(target):
    # The fast path replays the last launch's plan: a read-only device array of the same dtype,
    # ndim and layout must not reuse the writeable specialisation.
    @cuda.jit
    def poke(a):
        a[0] = 5

    w = cuda.to_device(np.zeros(3, np.float32))
    poke[1, 1](w)
    poke[1, 1](w)
    assert w.copy_to_host()[0] == 5
    d, back = readonly_device(target, np.zeros(3, np.float32))
    with pytest.raises(TypingError, match=MSG):
        poke[1, 1](d)
    assert not back().any()


def test_kernel_global_and_const_arrays(target):
    table = np.arange(3.0)

    @cuda.jit
    def atomic(out):
        cuda.atomic.add(table, 0, 1.0)

    @cuda.jit
    def const_store(out):
        c = cuda.const.array_like(table)
        c[0] = 1.0

    out = np.zeros(1)
    with pytest.raises(TypingError, match=r"readonly array\(float64, 1d, C\)"):
        atomic[1, 1](out)
    with pytest.raises(TypingError, match=MSG):
        const_store[1, 1](out)


# ---- runtime write paths ----------------------------------------------------------------------

@vectorize(["float32(float32)"], target="cuda")
def plus_one(x):
    return x + 1


def test_cuda_ufunc_out_read_only_host(target):
    for n in (3, 100000):  # small: the general path; large: the staged host path on the GPU
        o = readonly(np.zeros(n, np.float32))
        with pytest.raises(ValueError, match="out= is read-only"):
            plus_one(np.zeros(n, np.float32), out=o)
        assert not o.any()


def test_cuda_ufunc_out_read_only_device(target):
    d, back = readonly_device(target, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="out= is read-only"):
        plus_one(np.zeros(3, np.float32), out=d)
    assert not back().any()


def test_cpu_ufunc_out_read_only():
    @vectorize(["float32(float32)"])
    def g(x):
        return x + 1

    o = readonly(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="read-only"):
        g(np.zeros(3, np.float32), out=o)
    assert not o.any()


@guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target="cuda")
def gu_plus_one(x, y):
    for i in range(x.shape[0]):
        y[i] = x[i] + 1


def test_cuda_gufunc_read_only_outputs(target):
    o = readonly(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"output #1 is a read-only array"):
        gu_plus_one(np.zeros(3, np.float32), out=o)
    d, back = readonly_device(target, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"output #1 is a read-only array"):
        gu_plus_one(np.zeros(3, np.float32), out=d)
    assert not o.any() and not back().any()


def test_cuda_gufunc_read_only_input_is_copied_not_written(target):
    # Numba copies a host input to the device; a gufunc that scribbles on its input changes the
    # copy, never the (read-only) host array.
    @guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target="cuda")
    def scribble(x, y):
        x[0] = 9
        for i in range(x.shape[0]):
            y[i] = x[i] + 1

    a = readonly(np.zeros(3, np.float32))
    np.testing.assert_array_equal(scribble(a), [10, 1, 1])
    assert not a.any()


def test_cuda_gufunc_read_only_device_input(target):
    d, back = readonly_device(target, np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(gu_plus_one(d).copy_to_host(), [1, 2, 3])
    np.testing.assert_array_equal(back(), [0, 1, 2])


def test_cpu_gufunc_read_only_output():
    @guvectorize(["void(float32[:], float32[:])"], "(n)->(n)")
    def g(x, y):
        for i in range(x.shape[0]):
            y[i] = x[i] + 1

    o = readonly(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="read-only"):
        g(np.zeros(3, np.float32), out=o)


def test_reduce_res_read_only(target):
    d, back = readonly_device(target, np.zeros(1, np.float32))
    with pytest.raises(ValueError, match="res is a read-only array"):
        cuda.reduce(lambda a, b: a + b)(np.ones(3, np.float32), res=d)
    assert not back().any()
    # A read-only input is fine to reduce.
    assert cuda.reduce(lambda a, b: a + b)(readonly(np.ones(4, np.float32))) == 4


def test_device_array_copies_into_read_only(target):
    d, back = readonly_device(target, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="read-only"):
        d.copy_to_device(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="read-only"):
        cuda.to_device(np.ones(3, np.float32), to=d)
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 7
    with pytest.raises(ValueError, match="read-only"):
        d[1:][0] = 7
    assert not back().any()
    src = cuda.to_device(np.ones(3, np.float32))
    o = readonly(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="read-only"):
        src.copy_to_host(o)
    assert not o.any()


# ---- CPU gufuncs: NumPy passes inputs as they are ---------------------------------------------

@guvectorize(["void(float64[:], float64[:])", "void(float32[:], float32[:])"], "(n)->(n)")
def scribble_cpu(x, y):
    x[0] = 9
    for i in range(x.shape[0]):
        y[i] = x[i]


def test_cpu_gufunc_that_stores_into_an_input_refuses_read_only_memory():
    # Numba 0.68 writes into the read-only memory here (a bytes literal then reads 9.0); cujit
    # opens such an input read-write (as Numba's writable_args), so NumPy refuses it.
    b = np.frombuffer(b"\0" * 24, np.float64)
    with pytest.raises(ValueError, match="operand array with iterator write flag set is read-only"):
        scribble_cpu(b)
    assert bytes(b) == b"\0" * 24 and not b.any()
    a = np.zeros(3)
    np.testing.assert_array_equal(scribble_cpu(a), [9, 0, 0])
    np.testing.assert_array_equal(a, [9, 0, 0])  # a writeable input is written, as in Numba
    c = np.zeros(3, np.int32)  # cast to float64 for the loop: the copy is written back
    scribble_cpu(c)
    np.testing.assert_array_equal(c, [9, 0, 0])


def test_cpu_gufunc_reading_read_only_input():
    @guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
    def plus(x, y):
        for i in range(x.shape[0]):
            y[i] = x[i] + 1

    b = np.frombuffer(b"\0" * 24, np.float64)
    np.testing.assert_array_equal(plus(b), [1, 1, 1])


def test_lazy_cpu_gufunc_that_stores_into_an_input():
    @guvectorize("(n)->(n)")
    def lazy(x, y):
        x[0] = 9
        for i in range(x.shape[0]):
            y[i] = x[i]

    b = np.frombuffer(b"\0" * 24, np.float64)
    with pytest.raises(ValueError, match="read-only"):
        lazy(b, np.zeros(3))
    assert not b.any()
