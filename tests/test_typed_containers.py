"""cujit.typed.Dict (numba.typed.Dict), pinned against Numba 0.68: Dict.empty(key_type,
value_type), Dict() typed by its first insertion, its Python-side operations and repr, passed
to @jit functions that change it (the change seen by the caller, the same object returned)."""
import pytest

from cujit import njit, typed, types


def test_empty_and_python_side_ops():
    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
    d[1] = 2  # cast to the value type, as Numba
    assert d[1] == 2.0 and isinstance(d[1], float)
    assert len(d) == 1 and 1 in d and 2 not in d
    assert list(d.items()) == [(1, 2.0)]
    assert repr(d) == "DictType[int64,float64]<iv=None>({1: 2.0})"
    assert str(d) == "{1: 2.0}"
    with pytest.raises(KeyError):
        d[7]
    with pytest.raises(TypeError):
        d[2] = 2.5j


def test_typed_by_first_insertion():
    d = typed.Dict()
    d[1.5] = (1, 2)
    assert repr(d) == "DictType[float64,UniTuple(int64 x 2)]<iv=None>({1.5: (1, 2)})"


def test_mutated_in_jit_code_seen_by_the_caller():
    @njit
    def f(d):
        d[5] = 1.5
        del d[1]
        return len(d)

    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
    d[1] = 2
    d[3] = 4
    assert f(d) == 2
    assert list(d.items()) == [(3, 4.0), (5, 1.5)]


def test_returned_argument_shares_the_storage():
    @njit
    def f(d):
        d[2] = 1.0
        return d

    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
    r = f(d)
    assert r is not d  # Numba 0.68: a new typed.Dict object around the same dict
    assert dict(d) == {2: 1.0}
    r[3] = 4.0
    assert dict(d) == {2: 1.0, 3: 4.0}


def test_tuple_keys_passed_both_ways():
    @njit
    def f(d):
        d[(5, 6)] = d[(1, 2)] + 1
        return d

    d = typed.Dict()
    d[(1, 2)] = 10
    f(d)
    assert dict(d) == {(1, 2): 10, (5, 6): 11}


def test_numba_alias():
    from cujit.alias import install_numba_alias  # noqa: F401
    import importlib
    install_numba_alias()
    mod = importlib.import_module("numba.typed")
    assert mod.Dict is typed.Dict


def test_typed_list_python_side():
    l = typed.List([1, 2, 3])
    assert repr(l) == "ListType[int64]([1, 2, 3])" and str(l) == "[1, 2, 3]"  # Numba's
    assert isinstance(l[0], int) and len(l) == 3 and list(l) == [1, 2, 3]
    e = typed.List.empty_list(types.float64)
    e.append(1)
    assert repr(e) == "ListType[float64]([1.0])"
    f = typed.List()
    f.append(2.5)
    assert repr(f) == "ListType[float64]([2.5])"
    with pytest.raises(TypeError):
        e.append(1j)


def test_typed_list_passed_both_ways():
    @njit
    def g(l):
        l.append(10)
        return l

    l = typed.List([1, 2, 3])
    r = g(l)
    assert list(r) == [1, 2, 3, 10]
    assert repr(l) == "ListType[int64]([1, 2, 3, 10])"  # the caller's list changed


def test_empty_typed_list_argument():
    @njit
    def k(l):
        l.append(1.5)
        return len(l)

    e = typed.List.empty_list(types.float64)
    assert k(e) == 1
    assert list(e) == [1.5]


def test_reflected_list_results_stay_python_lists():
    @njit
    def h():
        return [1, 2]

    assert type(h()) is list  # Numba's


def test_tuples_holding_containers():
    # A tuple's struct names its items' structs: a list of tuples inside a tuple, and two tuples
    # whose lists differ in item type (they were one C++ struct name: the host compiler refused).
    @njit
    def f():
        a = [(1, 2)]
        return 1.0, a

    @njit
    def g():
        return ([1], 2), ([1.5], 2), ({1: 2}, 3)

    assert f() == (1.0, [(1, 2)])
    r = g()
    assert r[0] == ([1], 2) and r[1] == ([1.5], 2) and dict(r[2][0]) == {1: 2}
