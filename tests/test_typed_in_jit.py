"""numba.typed.List and numba.typed.Dict made inside @jit code (List(), List(iterable),
List.empty_list(t), Dict(), Dict.empty(k, v)), filled there, returned to Python as typed
containers, passed back and between @jit functions; typed containers of tuples holding str
as arguments both ways. Expected values and errors are Numba 0.68's on the same programs."""
import pytest

import cujit
from cujit import njit, typed, types
from cujit.errors import NumbaTypeSafetyWarning, TypingError
from cujit.typed import Dict, List


def test_list_typed_by_first_append_returned_as_typed_list():
    @njit
    def f(n):
        l = typed.List()
        for i in range(n):
            l.append(i * 2)
        return l

    r = f(4)
    assert isinstance(r, List)
    assert repr(r) == "ListType[int64]([0, 2, 4, 6])"
    r.append(10)  # a typed.List the caller can use and pass back

    @njit
    def total(l):
        s = 0
        for x in l:
            s += x
        return s

    assert total(r) == 22

    @njit
    def grow(l):
        l.append(100)
        return l

    r2 = grow(r)
    assert r2 is not r and list(r) == [0, 2, 4, 6, 10, 100] and list(r2) == list(r)  # one storage


def test_empty_list_and_dict_empty():
    @njit
    def f(n):
        l = typed.List.empty_list(types.float64)
        for i in range(n):
            l.append(i)  # int into float64: cast, as Numba
        d = typed.Dict.empty(key_type=types.unicode_type, value_type=types.int64)
        d["a"] = 1
        d["bb"] = 2
        return l, d

    l, d = f(3)
    assert repr(l) == "ListType[float64]([0.0, 1.0, 2.0])"
    assert isinstance(d, Dict) and repr(d) == "DictType[unicode_type,int64]<iv=None>({a: 1, bb: 2})"


def test_dict_typed_by_first_insertion():
    @njit
    def f():
        d = Dict()
        d[1] = 2.5
        d[2] = 3
        return d

    assert repr(f()) == "DictType[int64,float64]<iv=None>({1: 2.5, 2: 3.0})"


def test_numba_typed_through_the_module_and_imported_names():
    @njit
    def f():
        l = cujit.typed.List()
        l.append("a")
        m = List([1, 2, 3])
        return l, m, List(range(3))

    a, b, c = f()
    assert repr(a) == "ListType[unicode_type]([a])"
    assert repr(b) == "ListType[int64]([1, 2, 3])" and repr(c) == "ListType[int64]([0, 1, 2])"


def test_passed_between_jit_functions():
    @njit
    def g(l):
        s = 0
        for x in l:
            s += x
        return s

    @njit
    def f():
        l = typed.List()
        l.append(3)
        l.append(4)
        return g(l)

    assert f() == 7

    @njit
    def plus_one(l):
        l2 = typed.List()
        for x in l:
            l2.append(x + 1)
        return l2

    assert repr(plus_one(typed.List([1, 2]))) == "ListType[int64]([2, 3])"


def test_methods_slices_and_nesting():
    @njit
    def f():
        l = List([3, 1, 2])
        l.sort()
        m = List()
        for i in range(3):
            m.append(List([i]))
        m[0].append(9)
        s = List.empty_list(types.unicode_type)
        s.append("a")
        s.append("b")
        s.insert(0, "z")
        s.pop()
        return l, l.index(2), 2 in l, l.count(1), l[1:3], l[::-1], m, s, len(s), l.copy()

    l, idx, has, cnt, sl, rev, m, s, n, cp = f()
    assert repr(l) == "ListType[int64]([1, 2, 3])" and (idx, has, cnt) == (1, True, 1)
    assert repr(sl) == "ListType[int64]([2, 3])" and repr(rev) == "ListType[int64]([3, 2, 1])"
    assert repr(m) == "ListType[ListType[int64]]([[0, 9], [1], [2]])"
    assert repr(s) == "ListType[unicode_type]([z, a])" and n == 2
    assert isinstance(cp, List) and list(cp) == [1, 2, 3]


def test_tuples_holding_str_made_in_jit_code():
    @njit
    def f():
        l = typed.List()
        l.append((1, "a"))
        l.append((2, "bc"))
        d = typed.Dict()
        d["x"] = (1, "a")
        return l, d, l[1][1]

    l, d, s = f()
    assert repr(l) == "ListType[Tuple(int64, unicode_type)]([(1, 'a'), (2, 'bc')])"
    assert repr(d) == "DictType[unicode_type,Tuple(int64, unicode_type)]<iv=None>({x: (1, 'a')})"
    assert s == "bc"


def test_typed_list_compared_with_other_values():
    # Numba: a ListType against anything but a ListType compares False, != too.
    @njit
    def f():
        l = List([1, 2])
        return l == [1, 2], l != [1, 2], l == 1, l < [1, 3], l == List([1.0, 2.0]), l < List([1, 3])

    assert f() == (False, False, False, False, True, True)


def test_a_branch_that_never_appends():
    @njit
    def f(n):
        l = List()
        if n > 0:
            l.append(n)
        return l

    assert repr(f(0)) == "ListType[int64]([])"


def test_unsafe_casts_accepted_as_numba():
    @njit
    def f():
        l = List.empty_list(types.int32)
        l.append(5)
        l.append(True)
        d = Dict.empty(types.int64, types.int32)
        d[1] = 7
        return l, d

    # int64 into int32 is one Numba casts with its NumbaTypeSafetyWarning (tests/test_lang19_leftovers.py)
    with pytest.warns(NumbaTypeSafetyWarning, match="unsafe cast from int64 to int32. Precision may be lost."):
        l, d = f()
    assert repr(l) == "ListType[int32]([5, 1])" and repr(d) == "DictType[int64,int32]<iv=None>({1: 7})"


@pytest.mark.parametrize("body, message", [
    ("l = List()\n    l.append(1)\n    l.append(2.5)",
     "impl_append(ListType[int64], float64): cannot safely cast float64 to int64"),
    ("l = List()\n    l.append(1)\n    l.append('x')", "cannot safely cast unicode_type to int64"),
    ("l = List.empty_list(types.int64)\n    l.insert(0, 2.5)", "cannot safely cast float64 to int64"),
    ("l = List.empty_list(types.int64)\n    l.append(1)\n    l[0] = 2.5", "cannot safely cast float64 to int64"),
    ("d = Dict()\n    d[1] = 2\n    d[2] = 3.5", "setitem"),
    ("l = List([1])\n    l = l * 2", "mul"),
    ("l = List()", "Cannot infer the type of variable 'l', have imprecise type: ListType[undefined]"),
])
def test_refused_as_numba_refuses(body, message):
    ns = {"njit": njit, "List": List, "Dict": Dict, "types": types}
    src = "@njit\ndef f():\n    %s\n    return 0\n" % body
    exec(src, ns)
    with pytest.raises(TypingError) as info:
        ns["f"]()
    assert message in str(info.value)


def test_list_extend_by_iterables():
    @njit
    def f(s):
        l = [1]
        l.extend((2, 3))
        l.extend(range(4, 6))
        m = ["a"]
        m.extend(s)
        t = List()
        t.append(1.5)
        t.extend((1, 2))
        u = [0]
        u.extend({5})
        return l, m, t, u

    l, m, t, u = f("xy")
    assert l == [1, 2, 3, 4, 5] and m == ["a", "x", "y"] and u == [0, 5]
    assert repr(t) == "ListType[float64]([1.5, 1.0, 2.0])"


# ---- typed containers of tuples holding str, as arguments both ways


def test_list_of_int_str_tuples_argument_changed_in_place():
    @njit
    def f(l):
        s = 0
        for a, b in l:
            s += a * len(b)
        l.append((7, "seven"))
        return s

    l = typed.List([(1, "a"), (2, "bb")])
    assert f(l) == 5
    assert list(l) == [(1, "a"), (2, "bb"), (7, "seven")]


def test_dict_of_str_tuple_values_argument():
    @njit
    def f(d):
        d["z"] = (3, "zz")
        return d["a"][1] + d["z"][1]

    d = typed.Dict()
    d["a"] = (1, "x")
    assert f(d) == "xzz"
    assert dict(d) == {"a": (1, "x"), "z": (3, "zz")}


def test_str_tuples_keys_nested_and_returned_back():
    @njit
    def ident(x):
        return x

    @njit
    def make():
        l = typed.List()
        l.append(("k", 1.5))
        return l

    r = make()
    assert repr(ident(r)) == "ListType[Tuple(unicode_type, float64)]([('k', 1.5)])"
    d = typed.Dict()
    d[("a", 1)] = "v"
    assert repr(ident(d)) == "DictType[Tuple(unicode_type, int64),unicode_type]<iv=None>({('a', 1): v})"

    @njit
    def inner(l):
        return l[0][0][1]

    assert inner(typed.List([((1, "in"), "out")])) == "in"
    assert repr(ident(typed.List(["a", "é"]))) == "ListType[unicode_type]([a, é])"


def test_pairs_from_a_dict_and_item_replaced():
    @njit
    def pairs(d):
        l = typed.List()
        for k in d:
            l.append((k, d[k]))
        return l

    d = typed.Dict()
    d["x"] = 1
    d["y"] = 2
    assert repr(pairs(d)) == "ListType[Tuple(unicode_type, int64)]([('x', 1), ('y', 2)])"

    @njit
    def replace(l):
        l[0] = ("new", l[0][1])
        return len(l)

    l = typed.List([("old", 1)])
    assert replace(l) == 1 and list(l) == [("new", 1)]


def test_many_calls_keep_references_right():
    @njit
    def g(l, d):
        l.append((len(l), "x" * (len(l) % 5)))
        d["k" + str(len(l))] = (len(l), "v")
        m = typed.List()
        m.append(("a", (1, "b")))
        return m, l[0]

    l = typed.List([(0, "s")])
    d = typed.Dict()
    d["a"] = (1, "b")
    for _ in range(200):
        r = g(l, d)
    assert len(l) == 201 and len(d) == 201 and l[-1] == (200, "")
    assert repr(r) == "(ListType[Tuple(unicode_type, Tuple(int64, unicode_type))]([('a', (1, 'b'))]), (0, 's'))"
