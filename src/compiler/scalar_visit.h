// Runtime code that handles a scalar by its C++ type (marshalling, conversions, results handed to
// Python) dispatches here instead of writing its own switch over the scalar types: f is called
// with a value-initialised object of the row's host type (types.def).
#pragma once
#include <complex>
#include <cstdint>
#include <type_traits>

#include "compiler/types.h"

namespace cujit {

/// The host type of datetime64/timedelta64 rows: the int64 count of units (NaT is INT64_MIN). A
/// type of its own so runtime code sees it is no integer: Python receives np.datetime64 /
/// np.timedelta64 of the row's unit, and a conversion to or from a number is never made.
struct HostTime {
  int64_t v = 0;
};

template <class F>
decltype(auto) visit_scalar(Scalar s, F&& f) {
  switch (s) {
#define SCALAR(e, name, kind, size, align, dtype, host, cpp, aliases, np_names) \
  case Scalar::e: return f(host{});
#include "compiler/types.def"
#undef SCALAR
  }
  return f(int64_t{});  // unreachable: every enumerator has its row
}

// A real floating-point host type: float, double, and float16's _Float16 (which
// std::is_floating_point does not count).
template <class T> constexpr bool is_host_float = std::is_floating_point_v<T> || std::is_same_v<T, _Float16>;

template <class T> struct is_std_complex : std::false_type {};
template <class T> struct is_std_complex<std::complex<T>> : std::true_type {};

}  // namespace cujit
