// Issue 19's language leftovers, kept out of typeinfer.h (which nearly every file includes).
#pragma once

#include <vector>

#include "compiler/typeinfer.h"

namespace cujit {

// Mixed-type equality (typeinfer_compare.cpp): 0 or 1 where Numba answers `l op r` by the types
// alone (`s == 1` is False, `x != None` True, `{1: 2} == 1` False; `in` of an item every one of
// whose == is such a False), -1 otherwise; and whether `l op r` is None against an optional
// (compared at run time, as `is`).
int fixed_equality(const Type& l, ast::Op op, const Type& r);
int fixed_contains(const Type& item, ast::Op op, const Type& container);
bool none_against_optional(const Type& l, ast::Op op, const Type& r);

// Builtins rewritten into statements before typing (typeinfer_rewrites.cpp), where the list
// comprehensions are (typeinfer_lists.cpp): desugar_comprehensions with sum() and sorts with
// key= too (`sum_builtin`: whether `sum` is the builtin, sum_is_builtin).
void desugar_comprehensions_and_builtins(ast::Module& m, bool sum_builtin);
bool sum_is_builtin(const FunctionSource& src, const ast::Node& func);
bool is_sum_call(const ast::Node& e);
void expand_sum(const SourceFile& src, ast::Node& call, std::vector<ast::NodePtr>* before, int k);
/// sorted(x, key=f, reverse=r) and l.sort(key=f, reverse=r) (key not None).
bool is_sort_key_call(const ast::Node& e);
void expand_sort_key(const SourceFile& src, ast::Node& call, std::vector<ast::NodePtr>* before, int k);
/// The name of the literal_unroll that takes anything (sum()'s loop; typeinfer_unroll.cpp).
extern const char kUnrollAny[];

}  // namespace cujit
