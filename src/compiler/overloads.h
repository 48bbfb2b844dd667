// Numba's overload resolution over declared signatures, shared by the launch of a kernel
// declared with signatures (bindings/marshal.cpp, on the arguments' types) and by calls of a
// device function declared with signatures (typeinfer.cpp, on the call's types).
#pragma once

#include <string>
#include <vector>

#include "compiler/types.h"

namespace cujit {

/// Among the signatures whose arity matches, whose arrays fit the actual ones exactly (dtype,
/// ndim; layout unless declared 'A'; a read-only array only a read-only one) and whose scalars
/// convert by Numba's casting rules, the best: fewest unsafe conversions, then safe ones, then
/// promotions. `best` is its index (-1 when none fits); `tied` the others rated as well (then the
/// call is ambiguous).
struct OverloadChoice {
  int best = -1;
  std::vector<int> tied;
};
OverloadChoice choose_overload(const std::vector<std::vector<Type>>& declared, const std::vector<Type>& actual);

/// The types a call of a device function declared with `declared` signatures passes (its
/// arguments converted to the chosen signature's scalars, as Numba casts them) and, in `*ret`,
/// that signature's return type (Unknown when it names none). Without declared signatures, the
/// call's own types. A tie takes the first declared of the best (Numba's typing allows that
/// ambiguity in calls). On no match, returns {} with the message in `*why`.
std::vector<Type> declared_call_types(const std::vector<Signature>& declared, const std::vector<Type>& actual,
                                      const std::string& name, Type* ret, std::string* why);

}  // namespace cujit
