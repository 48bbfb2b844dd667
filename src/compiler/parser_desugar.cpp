// The parser's desugarings (see parser_desugar.h): lambdas become nested defs, a try's `else:`
// a flag and an `if`, an assert an `if` that raises. Each builds its nodes by role, as any pass does.
#include "compiler/parser_desugar.h"

#include <iterator>
#include <utility>

namespace cujit::desugar {

using ast::Kind;
using ast::NodePtr;

std::string lambda_name(const SourceLoc& kw) {
  return "__cj_lambda_" + std::to_string(kw.line) + "_" + std::to_string(kw.col);
}

NodePtr lambda_def(NodePtr fn, NodePtr value, const SourceLoc& ret_loc, std::vector<NodePtr> inner) {
  NodePtr ret = ast::make(Kind::Return, ret_loc);
  ret->value() = std::move(value);
  for (auto& l : inner) fn->body.push_back(std::move(l));  // lambdas in its body stay in it
  fn->body.push_back(std::move(ret));
  return fn;
}

void hoist_lambdas(std::vector<NodePtr>& out, size_t at, std::vector<NodePtr> lambdas) {
  // Making a function runs nothing, so the defs may go before whatever the statement evaluates.
  out.insert(out.begin() + (std::ptrdiff_t)at, std::make_move_iterator(lambdas.begin()),
             std::make_move_iterator(lambdas.end()));
}

void try_else(NodePtr try_stmt, std::vector<NodePtr> else_body, std::vector<NodePtr>& out) {
  const SourceLoc kw = try_stmt->loc;
  const std::string flag = "__cj_try_" + std::to_string(kw.line) + "_" + std::to_string(kw.col);
  auto flag_name = [&] {
    NodePtr f = ast::make(Kind::Name, kw);
    f->name = flag;
    return f;
  };
  auto set_flag = [&](bool v) {
    NodePtr a = ast::make(Kind::Assign, kw);
    a->targets().push_back(flag_name());
    a->rhs() = ast::make(Kind::Constant, kw);
    a->rhs()->cval.tag = ast::ConstValue::Tag::Bool;
    a->rhs()->cval.b = v;
    return a;
  };
  out.push_back(set_flag(false));
  try_stmt->body.push_back(set_flag(true));
  out.push_back(std::move(try_stmt));
  NodePtr test_else = ast::make(Kind::If, kw);
  test_else->test() = flag_name();
  test_else->body = std::move(else_body);
  out.push_back(std::move(test_else));
}

NodePtr assert_stmt(const SourceLoc& kw, NodePtr cond, NodePtr msg) {
  NodePtr raise = ast::make(Kind::Raise, kw);
  raise->name = "assert";
  NodePtr cls = ast::make(Kind::Name, kw);
  cls->name = "AssertionError";
  if (msg) {
    NodePtr call = ast::make(Kind::Call, kw);
    call->func() = std::move(cls);
    call->args().push_back(std::move(msg));
    raise->exc() = std::move(call);
  } else {
    raise->exc() = std::move(cls);
  }
  NodePtr n = ast::make(Kind::If, kw);
  n->test() = ast::make(Kind::UnaryOp, kw);
  n->test()->op = ast::Op::Not;
  n->test()->operand() = std::move(cond);
  n->body.push_back(std::move(raise));
  return n;
}

void add_handler(ast::Node& try_stmt, NodePtr cls, const SourceLoc& except_kw, std::vector<NodePtr> body, bool first) {
  NodePtr c = cls ? std::move(cls) : ast::make(Kind::Pass, except_kw);  // Pass: a bare except
  if (first) {
    try_stmt.handler_class() = c->is(Kind::Pass) ? nullptr : ast::clone(*c);
    try_stmt.orelse = std::move(body);
  }
  try_stmt.handler_classes().push_back(std::move(c));
}

}  // namespace cujit::desugar
