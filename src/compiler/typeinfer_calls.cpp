// Calls of compiled functions bound as Python binds them, as Numba folds them (its
// fold_arguments): `f(*t)` spreads a tuple's items, keywords go to the parameters they name, a
// parameter left out gets its default, and the extra positional arguments of a `*args` function
// become one tuple. The call's tree is rewritten once, in the calling instance's own copy, into a
// call with one positional argument per parameter, which the rest of the compiler already knows.
#include "compiler/typeinfer.h"
#include "compiler/fnval.h"

#include <set>
#include <string>
#include <utility>

namespace cujit {

namespace {

using ast::Node;
using ast::NodePtr;
using K = ast::Kind;

[[noreturn]] void typing_error(const FunctionInstance& fn, const Node& at, const std::string& msg) {
  user_error(fn.mod.source, at.loc, ErrorKind::Typing, msg);
}

/// Whether `n` is a default written as a constant (a number, a bool, None, a negated number, a
/// tuple of these): its value does not depend on where it is written, so a caller may copy it.
bool literal_default(const Node& n) {
  if (n.is(K::Constant)) return n.cval.tag != ast::ConstValue::Tag::Str;
  if (n.is(K::UnaryOp) && (n.op == ast::Op::USub || n.op == ast::Op::UAdd)) return literal_default(*n.a);
  if (n.is(K::Tuple)) {
    for (const auto& e : n.list)
      if (!literal_default(*e)) return false;
    return true;
  }
  return false;
}

NodePtr constant_node(SourceLoc at, ast::ConstValue v) {
  NodePtr n = ast::make(K::Constant, at);
  n->cval = std::move(v);
  return n;
}

/// The expression a caller passes for parameter `p` of `callee` that it left out: the value
/// Python evaluated at the def (the snapshot's " default <name>"), as a literal where it is a
/// Python number, bool or None, else as a global of the caller's that holds it; for a nested def
/// (no snapshot of its own), the default as written, which must be a constant.
NodePtr default_argument(FunctionInstance& fn, const Node& call, const FunctionSource& callee, const ast::Param& p) {
  using GK = GlobalValue::Kind;
  auto g = callee.globals.find(" default " + p.name);
  if (g != callee.globals.end()) {
    const GlobalValue& v = g->second;
    ast::ConstValue c;
    switch (v.kind) {
      case GK::Int: c.tag = ast::ConstValue::Tag::Int, c.i = v.i; return constant_node(call.loc, c);
      case GK::Float: c.tag = ast::ConstValue::Tag::Float, c.f = v.f; return constant_node(call.loc, c);
      case GK::Bool: c.tag = ast::ConstValue::Tag::Bool, c.b = v.i != 0; return constant_node(call.loc, c);
      case GK::NoneValue: return constant_node(call.loc, c);
      default: break;
    }
    // A NumPy scalar, a tuple, an array, an enum member...: typed as such a global is.
    const std::string name = "__cj_default_" + std::to_string(fn.nested.size()) + "_" + p.name;
    fn.nested[name] = v;
    NodePtr n = ast::make(K::Name, call.loc);
    n->name = name;
    return n;
  }
  if (!literal_default(*p.dflt))
    user_error(fn.mod.source, call.loc, ErrorKind::Unsupported,
               "the default value of parameter '" + p.name + "' of the nested function " + callee.name +
                   "() is not a constant (a number, bool, None or a tuple of them); pass the argument");
  NodePtr n = ast::clone(*p.dflt);
  n->loc = call.loc;
  return n;
}

}  // namespace

bool expand_starred(FunctionInstance& fn, Node& call, const std::function<Type(Node&)>& type_of) {
  bool any = false;
  for (const auto& a : call.list) any = any || a->is(K::Starred);
  if (!any) return true;
  std::vector<NodePtr> out;
  bool done = true;
  for (auto& a : call.list) {
    if (!a->is(K::Starred)) {
      out.push_back(std::move(a));
      continue;
    }
    Node& value = *a->a;
    if (value.is(K::Tuple)) {  // f(*(x, y)): the items themselves
      for (auto& item : value.list) out.push_back(std::move(item));
      continue;
    }
    const Type t = type_of(value);
    if (!t.known()) {
      done = false;
      out.push_back(std::move(a));
      continue;
    }
    if (!t.is_tuple())
      typing_error(fn, value, "argument unpacking (*) of a " + t.str() + ": only tuples can be unpacked into a call");
    if (!value.is(K::Name))  // its items are read one by one: evaluating it once each would repeat its effects
      user_error(fn.mod.source, value.loc, ErrorKind::Unsupported,
                 "argument unpacking (*) of an expression is not supported; assign the tuple to a variable first");
    forget_nodes(fn, value);
    for (size_t i = 0; i < t.elems.size(); ++i) {
      NodePtr item = ast::make(K::Subscript, value.loc);
      item->a = ast::clone(value);
      item->a->type = Type::unknown();
      ast::ConstValue c;
      c.tag = ast::ConstValue::Tag::Int;
      c.i = (int64_t)i;
      item->b = constant_node(value.loc, c);
      out.push_back(std::move(item));
    }
  }
  call.list = std::move(out);
  return done;
}

void bind_user_call(FunctionInstance& fn, Node& call, const FunctionSource& callee, const Node& def) {
  if (fn.bound_calls.count(&call)) return;
  const std::vector<ast::Param>& params = def.params;
  size_t star = params.size();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].star) star = i;
  const size_t positional = star;  // parameters a positional argument can fill
  // The common case: as many positional arguments as parameters, no *args, no keywords.
  if (star == params.size() && call.keywords.empty() && call.list.size() == params.size()) {
    fn.bound_calls.insert(&call);
    return;
  }
  const std::string who = callee.name + "()";
  std::vector<NodePtr> slots(params.size());
  std::vector<NodePtr> extra;
  for (size_t i = 0; i < call.list.size(); ++i) {
    if (i < positional) slots[i] = std::move(call.list[i]);
    else if (star < params.size()) extra.push_back(std::move(call.list[i]));
    else
      typing_error(fn, call, who + " takes " + std::to_string(positional) + " positional argument" +
                                 (positional == 1 ? "" : "s") + " but " + std::to_string(call.list.size()) +
                                 (call.list.size() == 1 ? " was" : " were") + " given");
  }
  for (auto& kw : call.keywords) {
    size_t i = 0;
    while (i < params.size() && (params[i].name != kw.name || params[i].star)) ++i;
    if (i == params.size()) typing_error(fn, *kw.value, who + " got an unexpected keyword argument '" + kw.name + "'");
    if (slots[i]) typing_error(fn, *kw.value, who + " got multiple values for argument '" + kw.name + "'");
    slots[i] = std::move(kw.value);
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < params.size(); ++i) {
    if (slots[i]) continue;
    if (i == star) {  // the extra positional arguments, as one tuple (Numba's StarArgTuple)
      slots[i] = ast::make(K::Tuple, call.loc);
      for (auto& e : extra) slots[i]->list.push_back(std::move(e));
    } else if (params[i].dflt) {
      slots[i] = default_argument(fn, call, callee, params[i]);
    } else {
      missing.push_back(params[i].name);
    }
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t i = 0; i < missing.size(); ++i)
      names += (i == 0 ? "" : i + 1 == missing.size() ? (missing.size() == 2 ? " and " : ", and ") : ", ") + ("'" + missing[i] + "'");
    typing_error(fn, call, who + " missing " + std::to_string(missing.size()) + " required positional argument" +
                               (missing.size() == 1 ? "" : "s") + ": " + names);
  }
  call.list = std::move(slots);
  call.keywords.clear();
  fn.bound_calls.insert(&call);
}

}  // namespace cujit
