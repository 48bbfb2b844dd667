// Functions as values: the operator module's functions, which Numba types as the operators they
// name. A call of one (`operator.add(a, b)`, or `op(a, b)` where `op` holds operator.add) is
// rewritten, in the calling instance's own tree, into the expression it stands for, which is
// then typed and generated as if the user had written it.
#pragma once
#include <set>
#include <string>

#include "compiler/ast.h"

namespace cujit {

/// The `name` of an operator node rewritten from a call (pow(a, b), operator.add(a, b)): it is
/// never folded as a literal expression, which Python folds only when written as an operator.
inline constexpr const char* kOperatorCall = "<operator call>";

/// Rewrites the Call node `call` of the operator-module function `qualified` ("operator.add")
/// into a BinOp, Compare, UnaryOp or Subscript node in place. Returns an empty string on success,
/// else the reason it cannot (wrong number of arguments, keywords, operator.setitem outside a
/// statement of its own), for a TypingError at the call.
std::string rewrite_operator_call(ast::Node& call, const std::string& qualified, bool statement);

/// operator.setitem(a, i, v) as a statement of its own: the Expr statement `stmt` becomes the
/// assignment a[i] = v. True when `stmt` was such a statement.
bool rewrite_setitem_statement(ast::Node& stmt, const std::string& qualified);

/// The parameters of `func` (a FunctionDef) that size an array it allocates (named in the shape
/// of an `X.array(shape, ...)` call: cuda.local.array, cuda.shared.array) and that it never assigns:
/// a constant passed for one makes a specialisation that knows it (FunctionInstance::const_params).
std::set<std::string> shape_params(const ast::Node& func);

/// The parameters of `func` that are the whole test of an `if` (`if flag:`) and that it never
/// assigns: a call whose plain typing fails is retried with the constants passed for them, and
/// the branches they rule out are neither typed nor generated (Numba's literal retry and dead
/// branch pruning).
std::set<std::string> branch_params(const ast::Node& func);

struct FunctionInstance;
/// Drops what typing recorded about `n` and its subtree in `f`, before a rewrite frees those
/// nodes (a later node at the same address must not inherit a resolution).
void forget_nodes(FunctionInstance& f, const ast::Node& n);

/// 1 or 0 where the test of an `if` is such a parameter holding a constant true or false in this
/// instance, or compares a variable whose type is None or not optional with None (`is`, `is
/// not`), else -1.
int constant_branch(const FunctionInstance& f, const ast::Node& test);

/// Whether `s` is an `if` whose constant_branch takes a branch that never falls through (`if y
/// is None: return x`): the statements after it in its block are unreachable, and pruned as
/// Numba prunes them (neither typed nor generated).
bool ends_block(const FunctionInstance& f, const ast::Node& s);

}  // namespace cujit
