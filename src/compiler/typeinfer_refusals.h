// The user errors the typers of lists, strings and dicts raise at a node, written once (internal
// to src/compiler: typeinfer_lists.cpp, typeinfer_strings.cpp, typeinfer_dicts.cpp).
#pragma once
#include <string>

#include "compiler/ast.h"
#include "compiler/diagnostics.h"
#include "compiler/types.h"

namespace cujit::detail {

/// UnsupportedError at `at`: Numba has the construct, cujit does not (or not here).
[[noreturn]] inline void refuse(const SourceFile& src, const ast::Node& at, const std::string& msg) {
  user_error(src, at.loc, ErrorKind::Unsupported, msg);
}
/// TypingError at `at`: Numba refuses the program too.
[[noreturn]] inline void typing(const SourceFile& src, const ast::Node& at, const std::string& msg) {
  user_error(src, at.loc, ErrorKind::Typing, msg);
}
/// An integer or a bool (what Python takes as an index or a count).
inline bool is_int(const Type& t) { return t.is_scalar() && (is_integer(t.scalar) || t.scalar == Scalar::Bool); }

}  // namespace cujit::detail
