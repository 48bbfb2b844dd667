// Python lists and the lists of @jit code (cj::ListHead, src/abi/cujit_abi.h): a Python list
// argument becomes a reflected list (its changes written back after the call, as Numba's
// reflection), and a returned list a new Python list.
#pragma once
#include <pybind11/pybind11.h>

#include <functional>
#include <map>
#include <vector>

#include "abi/cujit_abi.h"
#include "bindings/marshal.h"

namespace cujit {

/// The header every list shares with the generated code (src/abi/cujit_abi.h).
using ListHead = cj::ListHead;

/// A Python list argument of a @jit function: Numba's typeof (reflected list of one item type;
/// ValueError for an empty list, TypeError for one of mixed types) and a new ListHead holding
/// its items; `a.list_source` keeps the list for reflect_list.
KArg marshal_list(const pybind11::handle& h, int index);

/// Reads the items of the list at `head` into Python values.
using ItemReader = std::function<pybind11::object(const char*)>;
pybind11::list list_items(const ListHead* head, const Type& list, const ItemReader& read);

/// After the call: the argument's Python list is given the items the compiled code left in its
/// list, where they differ (Numba's reflection).
void reflect_list(const KArg& a, const ItemReader& read);

/// Drops one reference to a list (the argument's, or a returned one's).
void release_list(ListHead* head);

}  // namespace cujit
