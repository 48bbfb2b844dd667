// Dicts and sets of @jit code (cujit_abi.h's DictHead, prelude/host_dict.h's handles) and Python:
// a cujit.typed.Dict argument becomes a dict the compiled code changes (its changes written back
// into the typed.Dict after the call), a Python set argument a reflected set (Numba's reflection),
// and a returned dict a new typed.Dict (the argument's own where it is one), a returned set a set.
#pragma once
#include <pybind11/pybind11.h>

#include "abi/cujit_abi.h"
#include "bindings/lists.h"
#include "bindings/marshal.h"

namespace cujit {

using cj::DictHead;

/// Whether `h` is a cujit.typed.Dict.
bool is_typed_dict(const pybind11::handle& h);
/// A Python set (a reflected set: TypeError for an empty set or one of mixed types) as a new
/// DictHead; `a.list_source` keeps it. (typed.Dict arguments: typed_containers.h.)
KArg marshal_set(const pybind11::handle& h, int index);

/// Whether `h` is a cujit.typed.List (typed_containers.h).
bool is_typed_list(const pybind11::handle& h);

/// The dict or set at `head` as a Python object: `key` and `value` read one key or value.
pybind11::object dict_value(const DictHead* head, const Type& t, const ItemReader& key, const ItemReader& value);
/// After the call: the argument's set is given what the compiled code left in it.
void reflect_dict(const KArg& a, const ItemReader& key, const ItemReader& value);
/// Drops one reference to a dict or set.
void release_dict(DictHead* head);

/// Frees a DictHead made by this side and its five buffers; its items must be released first
/// (plain bytes need nothing; typed_containers.cpp's destroy releases handles).
void free_dict_storage(DictHead* head);

}  // namespace cujit
