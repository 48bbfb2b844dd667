"""Tuples as arguments, results and values: homogeneous (UniTuple) and heterogeneous, nested and
empty, in @jit functions, kernels and device functions. Arguments are marshalled as the struct of
their items (compiler/layout.h). Expectations are what Numba 0.68 / numba-cuda 0.30 give for the
same programs (results and their Python types)."""
import numpy as np
import pytest

from cujit import cuda, njit


def typed(value):
    """The value with the Python type of each item, to tell 1 from 1.0 and True from 1."""
    if isinstance(value, tuple):
        return tuple(typed(v) for v in value)
    return (type(value).__name__, value)


@njit
def ident(t):
    return t


@pytest.mark.parametrize("value", [(1, 2), (1, 2.5), ((1, 2.5), (3,)), (), (True, np.int8(-3), np.float32(0.5)),
                                   ((), ((1,),))])
def test_jit_tuple_argument_comes_back(value):
    expect = tuple(v.item() if isinstance(v, np.generic) else v for v in value)
    assert typed(ident(value)) == typed(expect)


def test_jit_typeof_tuples_and_dispatch_per_type():
    @njit
    def first(t):
        return t[0]

    assert typed(first((1, 2))) == ("int", 1)
    assert typed(first((1.5, 2))) == ("float", 1.5)
    assert typed(first(((1, 2), 3))) == (("int", 1), ("int", 2))
    assert first._signatures == [["UniTuple(int64 x 2)"], ["Tuple(float64, int64)"],
                                 ["Tuple(UniTuple(int64 x 2), int64)"]]


def test_jit_index_len_iterate_unpack():
    @njit
    def at(t, i):
        return t[i]

    @njit
    def summary(t):
        s = 0
        for x in t:
            s += x
        a, b, c = t
        return len(t), s, c, t[-1]

    assert at((1, 2, 3), 1) == 2
    assert at((1, 2, 3), -1) == 3
    with pytest.raises(IndexError, match="tuple index out of range"):
        at((1, 2, 3), 5)
    assert typed(summary((1, 2, 3))) == typed((3, 6, 3, 3))


def test_jit_swap_keeps_types():
    @njit
    def swap(a, b):
        a, b = b, a
        return a, b

    @njit
    def unpack(t):
        a, b = t
        return b, a

    assert typed(swap(1, 2.5)) == (("float", 2.5), ("int", 1))
    assert typed(unpack((1, 2.5))) == (("float", 2.5), ("int", 1))


def test_jit_concatenate_compare_contains():
    @njit
    def cat(a, b):
        return a + b

    @njit
    def cmp(a, b):
        return a == b, a < b, a != b, a >= b, a <= b, a > b

    @njit
    def contains(x, t):
        return x in t, x not in t

    assert typed(cat((1, 2), (3.5,))) == typed((1, 2, 3.5))
    assert cmp((1, 2), (1, 3)) == (False, True, True, False, True, False)
    assert cmp((1, 2.5), (1, 2.5)) == (True, False, False, True, True, False)
    assert cmp((1, 2), (1, 2, 0)) == (False, True, True, False, True, False)  # a prefix is smaller
    assert cmp(((1, 2), 3), ((1, 1), 9)) == (False, False, True, True, False, True)
    assert contains(2, (1, 2, 3)) == (True, False)
    assert contains(2.5, (1.0, 2.5)) == (True, False)
    assert contains(7, (1, 2, 3)) == (False, True)
    assert contains(7, ()) == (False, True)


def test_jit_constant_slices_and_tuple_builtin():
    @njit
    def sl(t):
        return t[1:], t[::-1], t[:2], t[-2:], t[5:], t[::2]

    @njit
    def tup(t):
        return tuple(t), tuple()

    assert typed(sl((1, 2.5, 3))) == typed(((2.5, 3), (3, 2.5, 1), (1, 2.5), (2.5, 3), (), (1, 3)))
    assert tup((1, 2)) == ((1, 2), ())


def test_jit_tuple_of_arrays():
    @njit
    def total(t):
        t[1][0] = 5.0
        return t[0].sum() + t[1].sum()

    a, b = np.ones(3), np.ones(4)
    assert total((a, b)) == 11.0
    assert b[0] == 5.0  # the array itself, not a copy


G = ((1, 2.5), (), (True,))


def test_jit_global_and_closure_tuples():
    @njit
    def glob():
        return G, G[0][1]

    def make():
        C = (3, 4)

        @njit
        def f():
            return C[1] + len(G)
        return f

    assert typed(glob()) == typed((((1, 2.5), (), (True,)), 2.5))
    assert make()() == 7


def test_jit_print_tuple(capfd):
    @njit
    def pr(t):
        print(t, (1,), ())

    pr((1, 2.5, (3, True)))
    assert capfd.readouterr().out == "(1, 2.5, (3, True)) (1,) ()\n"


def test_kernel_tuple_arguments(target):
    @cuda.jit
    def k(out, t, u):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = t[0][i] + t[1][i] + u[0] + u[1] * 2 + u[2][1]

    a, b = np.arange(4.0), np.ones(4)
    out = np.zeros(4)
    k[1, 4](out, (a, b), (1, 2.5, (True, np.int8(3))))
    assert list(out) == [10.0, 11.0, 12.0, 13.0]


def test_kernel_tuple_of_arrays_written(target):
    @cuda.jit
    def w(t):
        i = cuda.grid(1)
        if i < t[0].size:
            t[0][i] = i * 10
            t[1][i] = 7

    d = cuda.to_device(np.zeros(4))
    h = np.zeros(4)
    w[1, 4]((d, h))  # a device array written in place, a host array copied back
    assert list(d.copy_to_host()) == [0.0, 10.0, 20.0, 30.0]
    assert list(h) == [7.0] * 4


def test_device_function_tuples(target):
    @cuda.jit(device=True)
    def dev(t):
        return t[1], t[0]

    @cuda.jit
    def k(out, t, i):
        a, b = dev(t)
        out[0] = a
        out[1] = b
        out[2] = t[2][i]
        out[3] = (t[2] == (5, 6)) + ((1, 2) < t[2]) * 10 + (6 in t[2]) * 100

    out = np.zeros(4)
    k[1, 1](out, (1, 2.5, (5, 6)), 1)
    assert list(out) == [2.5, 1.0, 6.0, 111.0]


def test_kernel_print_tuples(target, capfd):
    @cuda.jit
    def pr(t):
        print(t)

    pr[1, 1]((1, ((2, 4), 3.0), (4,), 5))
    pr[1, 1]((1,))
    cuda.synchronize()
    assert capfd.readouterr().out.splitlines() == ["(1, ((2, 4), 3.0), (4,), 5)", "(1,)"]


def test_kernel_print_dim3(target, capfd):
    @cuda.jit
    def pd():
        print(cuda.threadIdx)

    pd[1, (2, 2, 1)]()
    cuda.synchronize()
    assert sorted(capfd.readouterr().out.splitlines()) == ["(0, 0, 0)", "(0, 1, 0)", "(1, 0, 0)", "(1, 1, 0)"]
