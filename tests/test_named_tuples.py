"""Named tuples (collections.namedtuple, typing.NamedTuple): Numba's NamedUniTuple / NamedTuple
types, as arguments and results of @jit functions, kernels and device functions, as globals, and
made in compiled code; and tuple types in declared signatures. Expectations are what Numba 0.68
(@njit) and numba-cuda 0.30's simulator give for the same programs."""
import collections
import typing

import numpy as np
import pytest

from cujit import cuda, jit, njit, types, typeof
from cujit.errors import TypingError

P = collections.namedtuple("P", ["x", "y"])
Q = collections.namedtuple("Q", ["x", "y"])  # the same fields: another type
P3 = collections.namedtuple("P3", ["x", "y", "z"], defaults=[7, 8.5])


class R(typing.NamedTuple):
    i: int
    f: float = 2.5


def typed(value):
    """The value with its Python type, items included, to tell P(1, 2) from (1, 2) and 1 from 1.0."""
    if isinstance(value, tuple):
        return (type(value).__name__,) + tuple(typed(v) for v in value)
    return (type(value).__name__, value)


@njit
def ident(p):
    return p


def test_jit_named_tuple_argument_comes_back_as_its_class():
    assert typed(ident(P(1, 2.5))) == typed(P(1, 2.5))
    assert typed(ident(R(1, 2.5))) == typed(R(1, 2.5))
    assert typed(ident(P(P(1, 2), (3, 4.5)))) == typed(P(P(1, 2), (3, 4.5)))


def test_jit_typeof_and_dispatch_per_class():
    @njit
    def first(p):
        return p[0]

    first(P(1, 2))
    first(Q(1, 2))  # same fields and items, another class: another specialisation
    first(P(1, 2.5))
    first((1, 2))
    assert first._signatures == [["P(int64 x 2)"], ["Q(int64 x 2)"], ["P(int64, float64)"], ["UniTuple(int64 x 2)"]]
    assert str(typeof(P(1, 2))) == "P(int64 x 2)"
    assert str(typeof(R(1, 2.5))) == "R(int64, float64)"
    assert typeof(P(1, 2)) != typeof(Q(1, 2))


def test_jit_fields_by_name_and_index_len_iteration_unpacking():
    @njit
    def use(p, i):
        s = 0
        for v in p:
            s += v
        a, b = p
        return p.x, p.y, p[0], p[-1], p[i], len(p), s, a - b

    @njit
    def het(p):
        return p.i + p.f, p[1], len(p)

    assert typed(use(P(1, 2), 1)) == typed((1, 2, 1, 2, 2, 2, 3, -1))
    assert typed(het(R(3, 0.5))) == typed((3.5, 0.5, 2))


def test_jit_comparisons_and_slices_give_plain_tuples():
    @njit
    def cmp(p, q):
        return p == q, p != q, p < q, 2 in p

    @njit
    def sl(p):
        return p[0:1], p[:]

    assert cmp(P(1, 2), P(1, 3)) == (False, True, True, True)
    assert cmp(P(1, 2), Q(1, 2)) == (True, False, False, True)
    assert cmp(P(1, 2), (1, 2)) == (True, False, False, True)
    assert typed(sl(P(1, 2.5))) == typed(((1,), (1, 2.5)))


def test_jit_construction_keywords_and_defaults():
    @njit
    def make(a, b):
        return P(a, b), P(x=a, y=b), P(a, y=b), P3(a), P3(a, 2), P3(a, z=3), R(4), R(f=1.0, i=a)

    got = make(1, 2.5)
    assert typed(got) == typed((P(1, 2.5), P(1, 2.5), P(1, 2.5), P3(1, 7, 8.5), P3(1, 2, 8.5), P3(1, 7, 3), R(4, 2.5),
                                R(1, 1.0)))


G = P(1, 2.5)
GN = P(P(1, 2), 3)


def test_jit_named_tuple_globals_and_closures():
    @njit
    def glob():
        return G.x + G[1], G, GN.x.y

    c = Q(5, 6)

    @njit
    def closure():
        return c.y, c

    assert typed(glob()) == typed((3.5, P(1, 2.5), 2))
    assert typed(closure()) == typed((6, Q(5, 6)))


def test_jit_named_tuple_of_arrays():
    @njit
    def total(p):
        p.y[0] = 9.0
        return p.x.sum() + p.y.sum()

    a, b = np.arange(3.0), np.ones(2)
    assert total(P(a, b)) == 13.0
    assert b[0] == 9.0


def test_jit_named_tuple_errors_as_numba():
    @njit
    def attr(p):
        return p.z

    @njit
    def fields(p):
        return p._fields

    @njit
    def add(p, q):
        return p + q

    @njit
    def var_index(p, i):
        return p[i]

    @njit
    def unify(c):
        q = P(1, 2)
        if c > 0:
            q = P(1.5, 2)
        return q

    @njit
    def missing():
        return P3()

    @njit
    def too_many():
        return P(1, 2, 3)

    @njit
    def class_attr():
        return P._fields

    with pytest.raises(TypingError, match=r"Unknown attribute 'z' of type P\(int64 x 2\)"):
        attr(P(1, 2))
    with pytest.raises(TypingError, match=r"Unknown attribute '_fields' of type P\(int64 x 2\)"):
        fields(P(1, 2))
    with pytest.raises(TypingError, match=r"add\(P\(int64 x 2\), P\(int64 x 2\)\)"):
        add(P(1, 2), P(3, 4))
    with pytest.raises(TypingError, match=r"add\(P\(int64 x 2\), UniTuple\(int64 x 2\)\)"):
        add(P(1, 2), (3, 4))
    with pytest.raises(TypingError, match=r"getitem\(P\(int64, float64\), int64\)"):
        var_index(P(1, 2.5), 1)
    with pytest.raises(TypingError, match=r"Cannot unify P\(int64 x 2\) and P\(float64, int64\)"):
        unify(1)
    with pytest.raises(TypingError, match=r"In '<class 'test_named_tuples.P3'>': missing a required argument: 'x'"):
        missing()
    with pytest.raises(TypingError, match=r"In '<class 'test_named_tuples.P'>': too many positional arguments"):
        too_many()
    with pytest.raises(TypingError, match=r"Unknown attribute '_fields' of type class\(<class 'test_named_tuples.P'>\)"):
        class_attr()


def test_kernel_named_tuple_arguments_device_functions_and_construction(target, capfd):
    @cuda.jit(device=True)
    def mk(a, b):
        return P(a, y=b)

    @cuda.jit(device=True)
    def getx(p):
        return p.x * 10 + p[1]

    @cuda.jit
    def k(out, p, q):
        r = mk(p.x + 1, q.y)
        out[0] = getx(r)
        out[1] = len(p) + p.y
        out[2] = q.x
        print(r)

    out = np.zeros(3)
    k[1, 1](out, P(1, 2.5), Q(3, 4.0))
    cuda.synchronize()
    assert list(out) == [24.0, 4.5, 3.0]
    assert "P(x=2, y=4.0)" in capfd.readouterr().out


def test_kernel_named_tuple_of_arrays(target):
    @cuda.jit
    def k(out, p):
        out[0] = p.x[0] + p.y[1]
        p.y[0] = 7.0

    out = np.zeros(1)
    a, b = np.arange(3.0), np.arange(3.0) * 2
    k[1, 1](out, P(a, b))
    assert out[0] == 2.0
    assert b[0] == 7.0


def test_declared_tuple_signatures_jit():
    uni = jit("float64(UniTuple(int64, 2))")(lambda p: p[0] + p[1])
    het = jit("float64(Tuple((int64, float64)))")(lambda p: p[0] + p[1])
    obj = jit(types.float64(types.UniTuple(types.int32, 3)))(lambda p: p[0] + p[2])
    obj2 = jit(types.float64(types.Tuple((types.int32, types.float32))))(lambda p: p[0] + p[1])
    named = jit(types.float64(types.NamedUniTuple(types.int64, 2, P)))(lambda p: p.x + p.y)
    assert typed(uni((1, 2))) == ("float", 3.0)
    assert typed(uni((1, 2.5))) == ("float", 3.0)  # the float item converted to int64
    assert typed(het((1, 2.5))) == ("float", 3.5)
    assert typed(obj((1, 2, 3))) == ("float", 4.0)
    assert typed(obj2((1, 2.5))) == ("float", 3.5)
    assert typed(named(P(1, 2))) == ("float", 3.0)
    assert uni._signatures == [["UniTuple(int64 x 2)"]]
    assert str(types.NamedUniTuple(types.int64, 2, P)) == "P(int64 x 2)"
    assert str(types.NamedTuple((types.int64, types.float64), P)) == "P(int64, float64)"
    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) UniTuple\(int64 x 3\)"):
        uni((1, 2, 3))
    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) UniTuple\(int64 x 2\)"):
        named((1, 2))  # Numba: a plain tuple does not fit a named tuple's signature
    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) P\(float64, int64\)"):
        named(P(1.5, 2))
    with pytest.raises(TypeError, match=r"No matching definition for argument type\(s\) P\(int64 x 2\)"):
        uni(P(1, 2))


def test_declared_return_type_of_jit_converts_the_result():
    # Numba converts the result to the declared type: float64(int64) returns 3.0, not 3.
    assert typed(jit("float64(int64)")(lambda a: a)(3)) == ("float", 3.0)
    assert typed(jit("int32(float64)")(lambda a: a)(3.7)) == ("int", 3)
    assert typed(jit("UniTuple(float64, 2)(int64)")(lambda a: (a, a))(3)) == typed((3.0, 3.0))
    # Numba: "No conversion from int64 to UniTuple(float64 x 2)" (and so on) at the decorator.
    for sig, f, got, want in [("UniTuple(float64, 2)(int64)", lambda a: a, "int64", "UniTuple(float64 x 2)"),
                              ("float64(int64)", lambda a: (a, a), "UniTuple(int64 x 2)", "float64"),
                              ("UniTuple(float64, 3)(int64)", lambda a: (a, a), "UniTuple(int64 x 2)", "UniTuple(float64 x 3)"),
                              ("void(float64)", lambda a: a, "float64", "none")]:
        with pytest.raises(TypingError, match=r"cannot return a %s from a function declared to return %s" %
                           (got.replace("(", r"\(").replace(")", r"\)"), want.replace("(", r"\(").replace(")", r"\)"))):
            jit(sig)(f)


def test_declared_tuple_signatures_kernel_and_device(target):
    @cuda.jit("void(UniTuple(int64, 2), float64[:])")
    def k(t, out):
        out[0] = t[0] + t[1]
        out[1] = t[0] / 2

    @cuda.jit(types.void(types.Tuple((types.int32, types.float32)), types.float64[:]))
    def k2(t, out):
        out[0] = t[0] + t[1]

    @cuda.jit("float64(UniTuple(float64, 2))", device=True)
    def d(t):
        return t[0] * t[1]

    @cuda.jit
    def k3(out):
        out[0] = d((2, 3))

    out = np.zeros(2)
    k[1, 1]((3, 4), out)
    assert list(out) == [7.0, 1.5]
    k2[1, 1]((3, 4.25), out)
    assert out[0] == 7.25
    k3[1, 1](out)
    assert out[0] == 6.0
