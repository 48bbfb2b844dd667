"""The same container passed as two arguments of a @jit function is one container inside it, as in
Numba (which shares typed.Dict/typed.List and reuses a reflected list's or set's native copy): a
change through one argument is seen through the other and reaches the caller's object (each
argument used to be copied in and written back on its own, so one write-back lost the other's
change in silence). Expected values are Numba 0.68's."""
from cujit import njit, typed, types


@njit
def set_then_read(a, b):
    a[1] = 5
    return b[1]


@njit
def append_then_len(a, b):
    a.append(7)
    return len(b)


@njit
def add_then_len(a, b):
    a.add(7)
    return len(b)


def test_typed_dict_twice():
    d = typed.Dict.empty(types.int64, types.int64)
    d[1] = 0
    assert set_then_read(d, d) == 5
    assert d[1] == 5


def test_typed_list_twice():
    l = typed.List.empty_list(types.int64)
    l.append(1)
    assert append_then_len(l, l) == 2
    assert list(l) == [1, 7]


def test_reflected_list_twice():
    l = [1]
    assert append_then_len(l, l) == 2
    assert l == [1, 7]


def test_reflected_set_twice():
    s = {1}
    assert add_then_len(s, s) == 2
    assert s == {1, 7}


def test_distinct_equal_containers_stay_distinct():
    a, b = [1], [1]
    assert append_then_len(a, b) == 1
    assert a == [1, 7] and b == [1]
