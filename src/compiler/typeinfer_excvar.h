// Exceptions held in variables (typeinfer_exc.cpp), called from the resolve step before typing
// (resolve.cpp) only: a header of its own, so that typeinfer.h, which nearly every
// compiler file includes, stays as it is.
#pragma once
#include <functional>
#include <string>

#include "compiler/typeinfer.h"

namespace cujit {

/// `e = ValueError("msg", x)` (or `e = ValueError`) and a later `raise e` (or `raise e(...)`), as
/// Numba allows an exception held in a variable: where `s` is such an assignment, each raise of
/// `e` becomes a raise of the value and `s` a pass, before typing (it needs names only). Refused
/// (the user's line) where the value could differ at the raise, or `e` is used otherwise. False:
/// `s` is another assignment.
bool rewrite_exception_variable(FunctionInstance& fn, ast::Node& s, const std::function<bool(const std::string&)>& is_local);

}  // namespace cujit
