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


def test_returned_argument_is_the_same_object():
    @njit
    def f(d):
        d[2] = 1.0
        return d

    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
    assert f(d) is d
    assert dict(d) == {2: 1.0}


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
