// The parser's desugarings (parser_desugar.cpp): Python written one way turned, while it is
// parsed, into statements the later passes already handle, so that no pass after the parser
// sees a lambda, a try's `else:` or an assert. Internal to parser.cpp.
#pragma once
#include <string>
#include <vector>

#include "compiler/ast.h"

namespace cujit::desugar {

/// The name of the def an inline lambda becomes: `__cj_lambda_<line>_<col>` of its keyword.
std::string lambda_name(const SourceLoc& kw);

/// `lambda params: value` as `def name(params): return value`. `fn` is the FunctionDef the parser
/// made with the lambda's name and parameters; `inner` are the lambdas inside `value`, whose defs
/// go first in its body; `ret` is where the value starts.
ast::NodePtr lambda_def(ast::NodePtr fn, ast::NodePtr value, const SourceLoc& ret,
                        std::vector<ast::NodePtr> inner);

/// The defs of a statement's inline lambdas placed before it: `out[at]` is the statement's first
/// node.
void hoist_lambdas(std::vector<ast::NodePtr>& out, size_t at, std::vector<ast::NodePtr> lambdas);

/// A try statement with an `else:` clause: a flag `__cj_try_<line>_<col>` set False before the
/// try and True at the end of its body, and `if flag:` with the else body after it (only the
/// body's normal end reaches the else clause). Appends the three statements to `out`.
void try_else(ast::NodePtr try_stmt, std::vector<ast::NodePtr> else_body, std::vector<ast::NodePtr>& out);

/// `assert cond, msg` as Python compiles it: `if not cond: raise AssertionError(msg)` (no msg: the
/// class alone). The Raise's name "assert" says its class is the builtin AssertionError whatever
/// the globals hold.
ast::NodePtr assert_stmt(const SourceLoc& kw, ast::NodePtr cond, ast::NodePtr msg);

/// One `except cls:` handler of `try_stmt` (`cls` null: a bare except, kept as a Pass in
/// handler_classes). As Numba's nopython mode, the first handler is the only one that runs: its
/// class and body become the Try's handler_class and orelse; every handler's class is listed for
/// typing's checks (typeinfer_exc.cpp).
void add_handler(ast::Node& try_stmt, ast::NodePtr cls, const SourceLoc& except_kw, std::vector<ast::NodePtr> body,
                 bool first);

}  // namespace cujit::desugar
