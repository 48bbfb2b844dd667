"""numba.typed: Dict and List (one key and value type, or one item type, as Numba's typed containers).

A typed.Dict keeps its items in a Python dict, each key and value converted to the dict's types
when stored (as Numba casts them). Passed to a @jit function it becomes the compiled code's dict
(bindings/typed_containers.cpp), and what the function leaves in it is written back into the same
storage after the call, also when the function raised, so changes made there are seen here as in
Numba, whose typed containers are shared storage. The storage (`_d`, a typed.List's `_l`) is what
a container is: a container the function returns, or an item read out of a container holding
containers, is a new wrapper object around the same storage, as Numba's are.
"""
from collections.abc import MutableMapping as _MutableMapping
from collections.abc import MutableSequence as _MutableSequence

import numpy as _np

__all__ = ["Dict", "List"]


def _type_str(t):
    return None if t is None else str(t)


def _typeof_str(v):
    from . import types as _types
    return str(_types.typeof(v))  # str: unicode_type; a typed container: ListType[...] / DictType[...]


def _shared(v):
    """An item as read out of a container: a container item is a new wrapper of its storage."""
    return v._share() if isinstance(v, (Dict, List)) else v


_INTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
_FLOATS = {"float16", "float32", "float64"}


def _coerce(v, tstr, what):
    """v stored into a slot of type tstr: Numba's cast (an int into a float slot), or TypeError."""
    if tstr == "bool":
        if isinstance(v, (bool, _np.bool_)):
            return bool(v)
    elif tstr in _INTS:
        if isinstance(v, (bool, int, _np.integer, _np.bool_)):
            return int(v) if tstr == "int64" else getattr(_np, tstr)(v)
    elif tstr in _FLOATS:
        if isinstance(v, (bool, int, float, _np.integer, _np.floating, _np.bool_)):
            return float(v) if tstr == "float64" else getattr(_np, tstr)(v)
    elif tstr.startswith(("UniTuple(", "Tuple(")) and isinstance(v, tuple):
        if _typeof_str(v) == tstr:
            return v
        want = _parse_tuple_items(tstr, len(v))
        if want is not None and len(want) == len(v):
            return tuple(_coerce(x, w, what) for x, w in zip(v, want))
    elif _typeof_str(v) == tstr:
        return v
    raise TypeError(f"cannot store a {_typeof_str(v)} as a {what} of type {tstr}")


def _parse_tuple_items(tstr, n):
    if tstr.startswith("UniTuple("):
        inner = tstr[len("UniTuple("):-1]
        item = inner.rsplit(" x ", 1)[0]
        return [item] * n
    inner = tstr[len("Tuple("):-1]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur.strip())
    return parts


class Dict(_MutableMapping):
    """numba.typed.Dict: Dict() (typed by its first insertion) or Dict.empty(key_type, value_type)."""

    _cj_typed_dict = True

    def __init__(self, *args, **kwargs):
        self._d = {}
        self._key_type = None
        self._value_type = None
        if args or kwargs:
            for k, v in dict(*args, **kwargs).items():
                self[k] = v

    @classmethod
    def empty(cls, key_type, value_type, n_keys=0):
        d = cls()
        d._key_type = _type_str(key_type)
        d._value_type = _type_str(value_type)
        return d

    @classmethod
    def _from_compiled(cls, items, key_type, value_type):
        d = cls()
        d._key_type, d._value_type = key_type, value_type
        d._d = items if type(items) is dict else dict(items)
        return d

    def _share(self):
        return Dict._from_compiled(self._d, self._key_type, self._value_type)

    # Numba's DictType[...] spelling, as its repr shows it.
    def _numba_type(self):
        k = self._key_type or "undefined"
        v = self._value_type or "undefined"
        return f"DictType[{k},{v}]<iv=None>"

    def _key(self, k):
        if self._key_type is None:
            return k
        return _coerce(k, self._key_type, "key")

    def __setitem__(self, k, v):
        if self._key_type is None:
            self._key_type = _typeof_str(k)
            self._value_type = _typeof_str(v)
        self._d[self._key(k)] = _coerce(v, self._value_type, "value")

    def __getitem__(self, k):
        return _shared(self._d[self._key(k)])

    def __delitem__(self, k):
        del self._d[self._key(k)]

    def __contains__(self, k):
        try:
            return self._key(k) in self._d
        except TypeError:
            return False

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __eq__(self, other):
        if isinstance(other, Dict):
            return self._d == other._d
        return self._d == other

    def __str__(self):  # Numba's: each key and value by str()
        return "{" + ", ".join(f"{k}: {v}" for k, v in self._d.items()) + "}"

    def __repr__(self):
        return f"{self._numba_type()}({self})"

    def copy(self):
        d = Dict.empty(self._key_type, self._value_type)
        d._d = dict(self._d)
        return d

    @property
    def _numba_type_(self):
        return self._numba_type()


class List(_MutableSequence):
    """numba.typed.List: List() (typed by its first item), List(iterable) or
    List.empty_list(item_type). Passed to a @jit function it is the compiled code's list, whose
    changes are written back into this object after the call (bindings/dicts.cpp)."""

    _cj_typed_list = True

    def __init__(self, iterable=None):
        self._l = []
        self._item_type = None
        if iterable is not None:
            for v in iterable:
                self.append(v)

    @classmethod
    def empty_list(cls, item_type, allocated=0):
        l = cls()
        l._item_type = _type_str(item_type)
        return l

    @classmethod
    def _from_compiled(cls, items, item_type):
        l = cls()
        l._item_type = item_type
        l._l = items
        return l

    def _share(self):
        return List._from_compiled(self._l, self._item_type)

    def _item(self, v):
        if self._item_type is None:
            self._item_type = _typeof_str(v)
        return _coerce(v, self._item_type, "list item")

    def __getitem__(self, i):
        if isinstance(i, slice):
            r = List.empty_list(self._item_type)
            r._l = self._l[i]
            return r
        return _shared(self._l[i])

    def __setitem__(self, i, v):
        if isinstance(i, slice):
            self._l[i] = [self._item(x) for x in v]
        else:
            self._l[i] = self._item(v)

    def __delitem__(self, i):
        del self._l[i]

    def __len__(self):
        return len(self._l)

    def insert(self, i, v):
        self._l.insert(i, self._item(v))

    def __eq__(self, other):
        if isinstance(other, List):
            return self._l == other._l
        return NotImplemented  # Numba's: a typed.List equals only a typed.List

    def __str__(self):  # Numba's: each item by str()
        return "[" + ", ".join(str(v) for v in self._l) + "]"

    def __repr__(self):
        return f"ListType[{self._item_type or 'undefined'}]({self})"

    def copy(self):
        r = List.empty_list(self._item_type)
        r._l = list(self._l)
        return r
