// numba.typed.List and numba.typed.Dict (python/cujit/typed.py) passed to @jit functions. In
// Numba these are shared storage: the function works on the caller's container itself, so every
// change is seen by the caller at once, through every alias, also when the function raises
// midway, and a container returned (or read out of a container of containers) is a new wrapper
// object around the same storage. Here the storage is a Python list or dict (the wrapper's `_l` /
// `_d`): for a call each storage reachable from the arguments becomes one header (ListHead,
// DictHead; one per storage, however many wrappers or slots hold it), and after the call, raised
// or not, each header's contents are written back into its storage, the containers the compiled
// code made becoming new storages. Items: numbers, str, tuples of those, and typed containers.
#pragma once
#include <pybind11/pybind11.h>

#include <functional>
#include <map>
#include <vector>

#include "abi/cujit_abi.h"
#include "bindings/lists.h"
#include "bindings/marshal.h"

namespace cujit {

/// The storages and headers of one call.
class TypedShare {
 public:
  /// Reads a number or a tuple of numbers (the dispatcher's result reader).
  using PlainReader = std::function<pybind11::object(const Type&, const char*)>;

  TypedShare() = default;
  TypedShare(const TypedShare&) = delete;
  TypedShare& operator=(const TypedShare&) = delete;
  /// Drops the reference held on each header made (so one the call dropped stays readable).
  ~TypedShare();

  /// A typed.List or typed.Dict argument: one reference to its storage's header (the same header
  /// for the same storage).
  KArg marshal(const pybind11::handle& wrapper, int index);

  /// After the call: every storage marshalled gets its header's contents.
  void write_back(const PlainReader& plain);

  /// Whether `head` (a ListHead or DictHead) is a storage's of this call (after write_back: also
  /// one the compiled code made and put into one), and a new wrapper of that storage.
  bool known(const void* head) const { return storage_.count(head) != 0; }
  pybind11::object wrap(const void* head, const Type& t, const PlainReader& plain);

 private:
  void* head_for(const pybind11::handle& wrapper, const Type& t, int index);
  void put(const pybind11::handle& v, const Type& t, char* slot, int index);
  pybind11::object get(const Type& t, const char* slot, const PlainReader& plain);
  void fill(const void* head, const Type& t, const pybind11::object& storage, const PlainReader& plain);

  std::map<PyObject*, void*> head_of_;                // storage -> header
  std::map<const void*, pybind11::object> storage_;   // header -> storage
  std::vector<std::pair<const void*, Type>> marshalled_;  // headers made from storages, in order
};

/// Whether `t` can be an item, key or value of a typed container passed to or from Python.
bool typed_item_supported(const Type& t);

/// How a list header made here drops its items of type `item` (numbers and tuples of them,
/// str, typed containers), as its `destroy`.
void (*list_destroy_for(const Type& item))(ListHead*);

/// Numba's spelling of a typed container's item type (ListType[...], DictType[...], unicode_type).
std::string typed_spelling(const Type& t);

}  // namespace cujit
