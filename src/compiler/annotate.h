// inspect_types(): a typed function's source with, above each line, the types inference gave the
// names, calls and results on that line (Numba prints its IR there; cujit has none, so it shows
// what a user reads the listing for: which type each variable and call ended up with).
#pragma once
#include <string>

#include "compiler/typeinfer.h"

namespace cujit {

/// The annotated listing of one typed instance, in the shape of Numba's inspect_types():
/// "name (argtypes)", a rule, "# File: ...", each line under "# --- LINE n --- " with
/// "#   what :: type" lines, and a closing rule.
std::string annotate_types(const FunctionInstance& f);

}  // namespace cujit
