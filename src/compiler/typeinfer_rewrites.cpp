// Builtins rewritten before typing where a statement evaluates them (with the list
// comprehensions, typeinfer_lists.cpp's Desugar): the statements go before that statement and
// the call becomes the name of its result.
//
// sum(iterable, start=0) is the loop Numba's own sum runs:
//
//     __cj_sum<k> = start
//     for __cj_sum<k>_x in __cj_unroll_any(iterable):   # literal_unroll that takes anything
//         __cj_sum<k> = __cj_sum<k> + __cj_sum<k>_x
//
// The accumulator is one variable, so its versions unify at the loop's head as Numba's do
// (sum([1.5, 2]) is float64, a sum of int8s int64, since start is an int64 0); a heterogeneous
// tuple is unrolled (typeinfer_unroll.cpp); an item that does not add (sum(['a']) with no str
// start) is refused at the `+`, whose place is the call's.
//
// sorted(iterable, key=k, reverse=r) and l.sort(key=k, reverse=r) compute the keys once each, in
// order, as Numba does, and sort by them (list.sort given the list of keys, which no user's call
// passes; prelude/host_list.h's list_sort_by):
//
//     __cj_sort<k> = list(iterable)          # l.sort(): __cj_sort<k> = l (the same list)
//     __cj_sort<k>_k = []
//     for __cj_sort<k>_x in __cj_sort<k>:
//         __cj_sort<k>_k.append(k(__cj_sort<k>_x))
//     __cj_sort<k>.sort(__cj_sort<k>_k, r)
//
// so a lambda or a nested def as the key is called directly (its captured values passed,
// typeinfer_nested.cpp) and a jitted function as any call of it.
#include <functional>
#include <string>

#include "compiler/diagnostics.h"
#include "compiler/typeinfer_rewrites.h"

namespace cujit {

namespace {

using ast::Kind;
using ast::Node;
using ast::NodePtr;

NodePtr sum_name(const std::string& n, SourceLoc loc) {
  NodePtr r = ast::make(Kind::Name, loc);
  r->name = n;
  return r;
}

bool binds(const Node& n, const std::string& name) {
  if (n.is(Kind::FunctionDef))
    for (const auto& p : n.params) if (p.name == name) return true;
  bool found = false;
  auto see_target = [&](const Node& t) {
    std::function<void(const Node&)> walk = [&](const Node& x) {
      if (x.is(Kind::Name) && x.name == name) found = true;
      if (x.is(Kind::Tuple) || x.is(Kind::List)) for (const auto& e : x.elts()) walk(*e);
    };
    walk(t);
  };
  if (n.is(Kind::Assign)) for (const auto& t : n.targets()) see_target(*t);
  if (n.is(Kind::AugAssign) || n.is(Kind::For)) see_target(*n.target());
  for (const auto& s : n.body) found = found || binds(*s, name);
  for (const auto& s : n.orelse) found = found || binds(*s, name);
  return found;
}

}  // namespace

const char kUnrollAny[] = "__cj_unroll_any";

bool sum_is_builtin(const FunctionSource& src, const Node& func) {
  return !src.globals.count("sum") && !binds(func, "sum");
}

bool is_sum_call(const Node& e) {
  return e.is(Kind::Call) && e.func()->is(Kind::Name) && e.func()->name == "sum";
}

void expand_sum(const SourceFile& src, Node& call, std::vector<NodePtr>* before, int k) {
  const SourceLoc loc = call.loc;
  NodePtr start;
  if (call.args().size() == 2) start = std::move(call.args()[1]);
  for (auto& kw : call.keywords) {
    if (kw.name != "start" || start || call.args().size() != 1)
      user_error(src, kw.loc, ErrorKind::Typing, "sum() got an unexpected keyword argument '" + kw.name + "'");
    start = std::move(kw.value);
  }
  if (call.args().empty() || call.args().size() > 2)
    user_error(src, loc, ErrorKind::Typing,
               "sum() takes an iterable and an optional start, " + std::to_string(call.args().size()) + " arguments given");
  if (!start) {
    start = ast::make(Kind::Constant, loc);
    start->cval.tag = ast::ConstValue::Tag::Int;
    start->cval.i = 0;
  }
  const std::string acc = "__cj_sum" + std::to_string(k), item = acc + "_x";
  NodePtr init = ast::make(Kind::Assign, loc);
  init->targets().push_back(sum_name(acc, loc));
  init->rhs() = std::move(start);
  NodePtr add = ast::make(Kind::BinOp, loc);
  add->op = ast::Op::Add;
  add->lhs() = sum_name(acc, loc);
  add->rhs() = sum_name(item, loc);
  NodePtr step = ast::make(Kind::Assign, loc);
  step->targets().push_back(sum_name(acc, loc));
  step->rhs() = std::move(add);
  NodePtr iter = ast::make(Kind::Call, loc);
  iter->func() = sum_name(kUnrollAny, loc);
  iter->args().push_back(std::move(call.args()[0]));
  NodePtr loop = ast::make(Kind::For, loc);
  loop->target() = sum_name(item, loc);
  loop->iter() = std::move(iter);
  loop->body.push_back(std::move(step));
  before->push_back(std::move(init));
  before->push_back(std::move(loop));
  call.args().clear();
  call.keywords.clear();
  call.func().reset();
  call.kind = Kind::Name;  // the call node is now the accumulator's name (its parent keeps it)
  call.name = acc;
}

bool is_sort_key_call(const Node& e) {
  if (!e.is(Kind::Call)) return false;
  const bool sorted = e.func()->is(Kind::Name) && e.func()->name == "sorted";
  const bool sort = e.func()->is(Kind::Attribute) && e.func()->name == "sort";
  if (!sorted && !sort) return false;
  for (const auto& kw : e.keywords)  // key=None is the plain sort
    if (kw.name == "key") return !(kw.value->is(Kind::Constant) && kw.value->cval.tag == ast::ConstValue::Tag::None);
  return false;
}

void expand_sort_key(const SourceFile& src, Node& call, std::vector<NodePtr>* before, int k) {
  const SourceLoc loc = call.loc;
  const bool sorted = call.func()->is(Kind::Name);
  NodePtr key, reverse;
  for (auto& kw : call.keywords) {
    if (kw.name == "key") key = std::move(kw.value);
    else if (kw.name == "reverse") reverse = std::move(kw.value);
    else user_error(src, kw.loc, ErrorKind::Typing, std::string(sorted ? "sorted" : "sort") + "() got an unexpected keyword argument '" + kw.name + "'");
  }
  if (call.args().size() != (sorted ? 1u : 0u))
    user_error(src, loc, ErrorKind::Typing,
               sorted ? "sorted() takes one iterable (key= and reverse= by keyword)" : "sort() takes key= and reverse= by keyword only");
  if (!key->is(Kind::Name))
    user_error(src, key->loc, ErrorKind::Unsupported,
               "key= must name a function (a lambda, a nested def or a jitted function); assign it to a name first");
  if (!reverse) {
    reverse = ast::make(Kind::Constant, loc);
    reverse->cval.tag = ast::ConstValue::Tag::Bool;
    reverse->cval.b = false;
  }
  const std::string l = "__cj_sort" + std::to_string(k), keys = l + "_k", item = l + "_x";
  NodePtr init = ast::make(Kind::Assign, loc);
  init->targets().push_back(sum_name(l, loc));
  if (sorted) {
    NodePtr mk = ast::make(Kind::Call, loc);
    mk->func() = sum_name("list", loc);
    mk->args().push_back(std::move(call.args()[0]));
    init->rhs() = std::move(mk);
  } else {
    init->rhs() = std::move(call.func()->value());
  }
  NodePtr kinit = ast::make(Kind::Assign, loc);
  kinit->targets().push_back(sum_name(keys, loc));
  kinit->rhs() = ast::make(Kind::List, loc);
  kinit->rhs()->name = keys;  // its item type is what is appended (typeinfer_lists.cpp)
  NodePtr kcall = ast::make(Kind::Call, key->loc);
  kcall->func() = std::move(key);
  kcall->args().push_back(sum_name(item, loc));
  NodePtr app = ast::make(Kind::Call, loc);
  app->func() = ast::make(Kind::Attribute, loc);
  app->func()->name = "append";
  app->func()->value() = sum_name(keys, loc);
  app->args().push_back(std::move(kcall));
  NodePtr app_stmt = ast::make(Kind::Expr, loc);
  app_stmt->value() = std::move(app);
  NodePtr loop = ast::make(Kind::For, loc);
  loop->target() = sum_name(item, loc);
  loop->iter() = sum_name(l, loc);
  loop->body.push_back(std::move(app_stmt));
  NodePtr by = ast::make(Kind::Call, loc);
  by->func() = ast::make(Kind::Attribute, loc);
  by->func()->name = "sort";  // with a list of keys: typeinfer_lists.cpp
  by->func()->value() = sum_name(l, loc);
  by->args().push_back(sum_name(keys, loc));
  by->args().push_back(std::move(reverse));
  NodePtr by_stmt = ast::make(Kind::Expr, loc);
  by_stmt->value() = std::move(by);
  before->push_back(std::move(init));
  before->push_back(std::move(kinit));
  before->push_back(std::move(loop));
  before->push_back(std::move(by_stmt));
  call.args().clear();
  call.keywords.clear();
  call.func().reset();
  if (sorted) {
    call.kind = Kind::Name;  // the sorted list
    call.name = l;
  } else {
    call.kind = Kind::Constant;  // list.sort() returns None
    call.cval.tag = ast::ConstValue::Tag::None;
  }
}

}  // namespace cujit
