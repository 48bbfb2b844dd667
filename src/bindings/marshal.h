// Python values as the generated code receives them: the type cujit gives each argument (Numba's
// typeof) and its bytes (cj::Array words for arrays, the value for scalars). Shared by the kernel
// dispatcher (bindings/kernel.cpp) and the CPU dispatcher (bindings/cpu.cpp).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "abi/cujit_abi.h"
#include "compiler/globals.h"
#include "compiler/types.h"
#include "bindings/numpy_arrays.h"

namespace cujit {

/// 'C', 'F' or 'A' for an array of this shape and byte strides (size-1 dimensions ignored).
char layout_of(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t itemsize);

/// One argument, typed and marshalled.
struct KArg {
  Type type;
  std::vector<int64_t> bytes;              // what the kernel parameter points at
  std::shared_ptr<rt::DeviceArray> dev;    // keeps device memory alive during the launch
  pybind11::object host_back;              // a host array to copy back into after the launch (or None)
  bool from_host = false;                  // a host NumPy array: copied to the GPU for the launch
  std::vector<KArg> items;                 // a tuple: its items, marshalled (their arrays live here)
  pybind11::object list_source;            // a Python list passed as a reflected list (bindings/lists.h)
};

/// Calls f on `a` and on every item of it, nested tuples included (arrays to keep alive, check
/// and copy back).
template <class F>
void for_each_item(const KArg& a, const F& f) {
  f(a);
  for (const KArg& i : a.items) for_each_item(i, f);
}

/// Whether h is a NumPy scalar (np.float32(1), ...) of a dtype cujit has, and its kind.
bool numpy_scalar_kind(const pybind11::handle& h, Scalar* out);

/// The value of NumPy scalar h, of kind s (numpy_scalar_kind), in its own type's bytes at `word`.
void numpy_scalar_bytes(const pybind11::handle& h, Scalar s, int64_t* word);

/// Re-encodes a marshalled scalar of type `from` as type `to` (C++'s conversions, as Numba's).
void convert_scalar_word(int64_t* word, Scalar from, Scalar to);

/// The named tuple class `cls` (a tuple subclass with `_fields`: collections.namedtuple and
/// typing.NamedTuple), registered with decorators.namedtuple_key; null for any other class.
TupleClassPtr named_tuple_class(const pybind11::handle& cls);

/// Types and marshals argument `index` for `backend`: device arrays as they are, host arrays in
/// place on the simulator (and for CPU code) or copied to the GPU, scalars by value, tuples as
/// the struct of their items (compiler/layout.h). Throws
/// UnknownArgumentType for a value cujit has no type for.
KArg marshal(const pybind11::handle& h, rt::Backend backend, int index);

/// Numba's rule for declared signatures: among those whose arity matches and whose arrays fit the
/// actual ones exactly (dtype, ndim; layout unless declared 'A'), the one whose scalar conversions
/// are best (fewest unsafe, then safe, then promotions, by Numba's casting rules); its scalars are
/// converted in place. Returns that signature; throws TypeError "Ambiguous overloading ..." for a
/// tie at the best and "No matching definition ..." when none fits.
std::vector<Type> bind_declared(const std::vector<std::vector<Type>>& declared, std::vector<KArg>& karg,
                                const std::vector<Type>& actual, const std::string& name);

/// `fs` (a compile's snapshot), or a copy of it holding the functions that `args` name
/// (is_function_arg) as their globals (decorators.add_function_args).
std::shared_ptr<FunctionSource> with_function_args(std::shared_ptr<FunctionSource> fs, const std::vector<Type>& args);

/// A Python value with no cujit type (a dict, a string, ...); what() is Numba's wording,
/// "Cannot determine Numba type of <class 'dict'>".
struct UnknownArgumentType : std::runtime_error {
  UnknownArgumentType(int index, const std::string& msg) : std::runtime_error(msg), index(index) {}
  int index;
};

}  // namespace cujit
