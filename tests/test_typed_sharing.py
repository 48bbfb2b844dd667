"""numba.typed.List / typed.Dict passed to @jit functions are shared storage, as in Numba 0.68:
a change made by the function is seen through every wrapper of the container, also when the
function raises midway; a container returned, or read out of a container of containers, is a new
wrapper object around the same storage; str items and typed containers as items. Reflected lists
and sets are reflected also when the function raises (Numba reflects before it raises).
Expected values are Numba 0.68's (python/cujit/typed.py, bindings/typed_containers.h)."""
import pytest

from cujit import njit, typed, types


@njit
def ident(x):
    return x


@njit
def append_raise(l, x):
    l.append(x)
    raise ValueError("boom")


@njit
def append_then_index(l, x):
    l.append(x)
    return l[100]


@njit
def set_raise(d, k, v):
    d[k] = v
    raise ValueError("boom")


@njit
def add_raise(s, x):
    s.add(x)
    raise ValueError("boom")


@njit
def first(ll):
    return ll[0]


@njit
def append_to_first(ll):
    ll[0].append(99)


@njit
def pair(l):
    return l, l


@njit
def append(l, x):
    l.append(x)
    return len(l)


@njit
def put(d, k, v):
    d[k] = v


def test_changes_seen_when_the_call_raises():
    l = typed.List([1, 2, 3])
    with pytest.raises(ValueError, match="boom"):
        append_raise(l, 4)
    assert list(l) == [1, 2, 3, 4]
    l = typed.List([1, 2])
    with pytest.raises(IndexError):
        append_then_index(l, 3)
    assert list(l) == [1, 2, 3]
    d = typed.Dict.empty(types.int64, types.float64)
    with pytest.raises(ValueError):
        set_raise(d, 1, 2.0)
    assert dict(d) == {1: 2.0}


def test_reflected_containers_reflected_when_the_call_raises():
    l = [1, 2]
    with pytest.raises(ValueError):
        append_raise(l, 3)
    assert l == [1, 2, 3]
    s = {1}
    with pytest.raises(ValueError):
        add_raise(s, 3)
    assert s == {1, 3}


def test_returned_container_is_a_new_wrapper_of_the_same_storage():
    l = typed.List([1, 2, 3])
    r = ident(l)
    assert r is not l and type(r) is typed.List
    r.append(4)
    assert list(l) == [1, 2, 3, 4]
    a, b = pair(l)
    assert a is not l and b is not l
    a.append(5)
    assert list(b) == [1, 2, 3, 4, 5]
    assert ident([1, 2]) is not None
    pl = [1, 2]
    assert ident(pl) is pl  # a reflected list is returned as the caller's own list


def test_aliases_of_one_storage_are_one_container():
    l = typed.List([1])
    r = ident(l)  # another wrapper of l's storage
    assert append(l, 2) == 2
    assert list(r) == [1, 2]
    assert append(r, 3) == 3 and list(l) == [1, 2, 3]


def test_str_items_keys_and_values():
    l = typed.List(["a", "bc"])
    assert append(l, "d") == 3
    assert list(l) == ["a", "bc", "d"]
    assert repr(ident(l)) == "ListType[unicode_type]([a, bc, d])"  # Numba's
    d = typed.Dict.empty(types.unicode_type, types.unicode_type)
    d["x"] = "y"
    put(d, "k", "v")
    assert dict(d) == {"x": "y", "k": "v"}
    assert repr(ident(d)) == "DictType[unicode_type,unicode_type]<iv=None>({x: y, k: v})"


def test_containers_in_containers():
    ll = typed.List([typed.List([1, 2]), typed.List([3])])
    assert repr(ll) == "ListType[ListType[int64]]([[1, 2], [3]])"
    assert ll[0] is not ll[0] and type(ll[0]) is typed.List  # Numba: a new wrapper per read
    inner = first(ll)
    inner.append(5)
    assert list(ll[0]) == [1, 2, 5]
    append_to_first(ll)
    assert list(ll[0]) == [1, 2, 5, 99]
    assert list(inner) == [1, 2, 5, 99]
    d = typed.Dict.empty(types.int64, types.int64)
    d[1] = 1
    dl = typed.List([d])
    first(dl)[5] = 5
    assert dict(d) == {1: 1, 5: 5}
    dd = typed.Dict.empty(types.int64, types.ListType(types.int64))
    dd[1] = typed.List([1])
    assert repr(dd) == "DictType[int64,ListType[int64]]<iv=None>({1: [1]})"


def test_same_storage_twice_inside_a_container():
    a = typed.List([1])
    ll = typed.List([a, a])

    @njit
    def grow_first(ll):
        ll[0].append(2)
        return len(ll[1])

    assert grow_first(ll) == 2
    assert list(a) == [1, 2] and list(ll[1]) == [1, 2]


def test_typed_list_equals_only_typed_lists():
    l = typed.List([1.5])
    assert l == typed.List([1.5])
    assert not (l == [1.5])  # Numba's
