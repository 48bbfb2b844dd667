// Exceptions when typing: raise (and assert, which the parser writes as a raise of
// AssertionError) and try/except, with Numba's rules (typeinfer.h). The typer (typeinfer.cpp)
// calls these from its statement walk; codegen_exc.cpp writes the code.
#include <functional>
#include <algorithm>
#include <cstring>
#include <map>

#include "compiler/fnval.h"
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_excvar.h"

namespace cujit {

namespace {
struct BuiltinExc {
  const char* name;
  bool is_exception;
};
constexpr BuiltinExc kBuiltinExceptions[] = {
#define EXC(name, is_exception) {#name, is_exception},
#include "compiler/exceptions.def"
#undef EXC
};

const BuiltinExc* find_builtin_exception(const std::string& name) {
  for (const auto& b : kBuiltinExceptions)
    if (name == b.name) return &b;
  return nullptr;
}


int class_index(Program& prog, const ExcClass& c) {
  for (size_t i = 0; i < prog.exc_classes.size(); ++i)
    if (prog.exc_classes[i].key == c.key) return (int)i;
  prog.exc_classes.push_back(c);
  return (int)prog.exc_classes.size() - 1;
}

// The class a name in a raise (or an except clause) stands for, or false. Numba's message for a
// name that is no exception class ("raise 5", "raise NotAnException").
bool resolve_class(const FunctionInstance& fn, const std::string& name, ExcClass* out) {
  auto g = fn.src->globals.find(name);
  if (g != fn.src->globals.end()) {
    if (g->second.kind != GlobalValue::Kind::ExcClass) return false;
    *out = ExcClass{g->second.type_name, g->second.attr, g->second.i != 0};
    return true;
  }
  if (const BuiltinExc* b = find_builtin_exception(name)) {
    *out = ExcClass{std::string("builtins.") + b->name, b->name, b->is_exception};
    return true;
  }
  return false;
}

constexpr const char* kNotAnException = "Encountered unsupported constant type used for exception";

// An argument compiled code can hand to the exception's constructor: numbers, booleans, None and
// string literals (Numba also converts arrays and tuples to Python objects; cujit refuses those).
bool passable(const ast::Node& arg, const Type& t) {
  if (t.tag == Type::Tag::String) return arg.is(ast::Kind::Constant);
  if (t.tag == Type::Tag::None) return true;
  return t.tag == Type::Tag::Scalar && t.name.empty();
}

// A GPU raise's argument is reported from a table made when compiling: a literal, or - a literal.
bool is_constant_arg(const ast::Node& a) {
  if (a.is(ast::Kind::Constant)) return true;
  return a.is(ast::Kind::UnaryOp) && (a.op == ast::Op::USub || a.op == ast::Op::UAdd) && a.operand()->is(ast::Kind::Constant) &&
         a.operand()->cval.tag != ast::ConstValue::Tag::Str;
}
}  // namespace

void type_raise(Program& prog, FunctionInstance& fn, ast::Node& s, const std::function<Type(ast::Node&)>& type_expr,
                const std::function<bool(const std::string&)>& is_local) {
  if (s.cause()) unsupported_error(fn, *s.cause(), "Multiple argument raise is not supported.");
  if (!s.exc()) unsupported_error(fn, s, "The re-raising of an exception is not yet supported.");
  ast::Node* cls = s.exc().get();
  ast::Node* call = nullptr;
  if (cls->is(ast::Kind::Call)) {
    call = cls;
    cls = call->func().get();
  }
  ExcClass c;
  if (s.name == "assert") {
    c = ExcClass{"builtins.AssertionError", "AssertionError", true};
  } else {
    if (!cls->is(ast::Kind::Name)) unsupported_error(fn, *cls, kNotAnException);
    if (is_local(cls->name))
      unsupported_error(fn, *cls,
                  "raising an exception held in a variable ('" + cls->name +
                      "') is not supported; raise the class, or a call of it, where the exception is made");
    if (!resolve_class(fn, cls->name, &c)) {
      auto g = fn.src->globals.find(cls->name);
      if (g == fn.src->globals.end() && !find_builtin(cls->name) && cls->name != "None")
        typing_error(fn, *cls, "NameError: name '" + cls->name + "' is not defined");
      unsupported_error(fn, *cls, kNotAnException);
    }
  }
  s.cval.i = class_index(prog, c);
  if (!call) return;
  if (!call->keywords.empty())
    unsupported_error(fn, *call, "keyword arguments of an exception class are not supported; pass them by position");
  if (call->args().size() > 8) unsupported_error(fn, *call->args()[8], "an exception with more than 8 arguments is not supported");
  for (auto& a : call->args()) {
    if (a->is(ast::Kind::Name) && !is_local(a->name)) {  // a global or free str: its value, as a literal
      auto g = fn.src->globals.find(a->name);
      if (g != fn.src->globals.end() && g->second.kind == GlobalValue::Kind::Opaque && g->second.attr.rfind("str:", 0) == 0) {
        ast::NodePtr lit = ast::make(ast::Kind::Constant, a->loc);
        lit->cval.tag = ast::ConstValue::Tag::Str;
        lit->cval.s = g->second.attr.substr(4);
        a = std::move(lit);
      }
    }
    if (a->is(ast::Kind::Constant) && a->cval.tag == ast::ConstValue::Tag::Str) a->type = Type::string();
    const Type t = a->type.tag == Type::Tag::String ? a->type : type_expr(*a);
    if (!t.known()) continue;  // a later pass knows it
    if (!passable(*a, t))
      unsupported_error(fn, *a, "an exception argument of type " + t.str() +
                              " is not supported (numbers, booleans, None and string literals are)");
    if (!fn.host_only && !is_constant_arg(*a))
      unsupported_error(fn, *a,
                  "an exception raised in GPU code takes constant arguments only (literals): the device reports "
                  "which raise ran, and the host makes the exception from the arguments known when compiling");
  }
}

void check_try(const Program& prog, FunctionInstance& fn, const ast::Node& s) {
  (void)prog;
  if (!fn.host_only)
    unsupported_error(fn, s, "'try' statements are not supported in GPU code (" + gpu_decorator(fn) + ")");
  for (const auto& h : s.handler_classes()) {
    if (h->is(ast::Kind::Pass)) continue;  // a bare except
    ExcClass c;
    if (h->is(ast::Kind::Name) && resolve_class(fn, h->name, &c) && c.key == "builtins.Exception") continue;
    // Numba's nopython mode matches a raised exception against Exception only (its
    // exception_match intrinsic has no other implementation).
    std::string what = h->is(ast::Kind::Name) && resolve_class(fn, h->name, &c) ? "exception class " + c.name
                       : h->is(ast::Kind::Tuple)                                   ? "a tuple of classes"
                                                                                   : "this expression";
    typing_error(fn, *h,
                 "No implementation of function Function(<intrinsic exception_match>) found for " + what +
                     ": compiled code catches only a bare 'except:' or 'except Exception:'");
  }
}

namespace {
void target_types(const ast::Node& t, const ast::Node& stmt, std::map<std::string, std::vector<std::pair<Type, const ast::Node*>>>& out) {
  if (t.is(ast::Kind::Name)) out[t.name].push_back({stmt.is(ast::Kind::AugAssign) ? stmt.type : t.type, &t});
  if (t.is(ast::Kind::Tuple))
    for (const auto& e : t.elts()) target_types(*e, stmt, out);
}
void assigned_types(const std::vector<ast::NodePtr>& stmts,
                    std::map<std::string, std::vector<std::pair<Type, const ast::Node*>>>& out) {
  for (const auto& s : stmts) {
    if (s->is(ast::Kind::Assign))
      for (const auto& t : s->targets()) target_types(*t, *s, out);
    if (s->is(ast::Kind::AugAssign) || s->is(ast::Kind::For)) target_types(*s->target(), *s, out);
    std::function<void(const ast::Node&)> walrus = [&](const ast::Node& n) {  // `(x := v)` in its expressions
      if (n.is(ast::Kind::FunctionDef)) return;
      if (n.is(ast::Kind::NamedExpr)) target_types(*n.target(), n, out);
      ast::for_each_child(n, walrus);
    };
    if (!s->is(ast::Kind::FunctionDef)) ast::for_each_child(*s, walrus);
    assigned_types(s->body, out);
    assigned_types(s->orelse, out);
  }
}
}  // namespace

std::set<std::string> try_unsettled_names(const FunctionInstance& fn, const ast::Node& s,
                                          const std::function<Type(const std::string&)>& before, bool final) {
  std::map<std::string, std::vector<std::pair<Type, const ast::Node*>>> types;
  assigned_types(s.body, types);
  std::set<std::string> out;
  for (auto& [name, ts] : types) {
    Type first = before(name);
    const bool had = first.known();
    for (const auto& [t, at] : ts) {
      if (!t.known()) continue;
      if (!first.known()) {
        first = t;
        continue;
      }
      if (t == first) continue;
      out.insert(name);
      // Where the handler starts, the value is in the C++ variable of whichever version was
      // assigned last, which only the run knows: refused rather than read from the wrong one.
      if (final)
        unsupported_error(fn, *at,
                    "'" + name + "' is assigned a value of type " + t.str() + " in this 'try' body, but holds one of type " +
                        first.str() + (had ? " before it" : " earlier in it") +
                        ": a variable keeps one type inside a 'try' body in cujit (convert the value, or use "
                        "another name)");
    }
  }
  return out;
}

namespace {
// What the function does with the name `v`: its assignments, its `raise v` statements and every
// other read of it.
struct NameUses {
  std::string v;
  int assigned = 0;
  std::vector<ast::Node*> raises;
  std::vector<ast::Node*> class_calls;  // `raise v(...)`: v holds a class
  const ast::Node* other = nullptr;
  std::map<std::string, int> assigns;  // every name the function assigns, with its count
};
void count_targets(const ast::Node& t, NameUses& u) {
  if (t.is(ast::Kind::Name)) u.assigns[t.name]++;
  if (t.is(ast::Kind::Tuple) || t.is(ast::Kind::List))
    for (const auto& e : t.elts()) count_targets(*e, u);
  if (t.is(ast::Kind::Starred) && t.value()) count_targets(*t.value(), u);
}
void walk_uses(ast::Node& n, NameUses& u) {
  if (n.is(ast::Kind::Raise) && n.exc() && n.exc()->is(ast::Kind::Name) && n.exc()->name == u.v) {
    u.raises.push_back(&n);
    return;
  }
  if (n.is(ast::Kind::Raise) && n.exc() && n.exc()->is(ast::Kind::Call) && n.exc()->func()->is(ast::Kind::Name) &&
      n.exc()->func()->name == u.v) {
    u.class_calls.push_back(&n);
    for (auto& c : n.exc()->args()) walk_uses(*c, u);
    for (auto& k : n.exc()->keywords)
      if (k.value) walk_uses(*k.value, u);
    return;
  }
  // A plain name assigned is no read (`a[i] = ...` reads a and i: walked).
  std::vector<const ast::Node*> targets;
  if (n.is(ast::Kind::Assign))
    for (const auto& t : n.targets()) targets.push_back(t.get());
  if (n.is(ast::Kind::AugAssign) || n.is(ast::Kind::For) || n.is(ast::Kind::Comprehension)) targets.push_back(n.target().get());
  for (const ast::Node* t : targets) count_targets(*t, u);
  if (n.is(ast::Kind::Name) && n.name == u.v && !u.other) u.other = &n;
  ast::for_each_child(n, [&](ast::Node& c) {
    if (c.is(ast::Kind::Name) && std::find(targets.begin(), targets.end(), &c) != targets.end()) return;
    walk_uses(c, u);
  });
}
}  // namespace

bool rewrite_exception_variable(FunctionInstance& fn, ast::Node& s, const std::function<bool(const std::string&)>& is_local) {
  if (s.targets().size() != 1 || !s.targets()[0]->is(ast::Kind::Name)) return false;
  ast::Node& value = *s.rhs();
  const ast::Node& cls = value.is(ast::Kind::Call) ? *value.func() : value;
  ExcClass c;
  if (!cls.is(ast::Kind::Name) || is_local(cls.name) || !resolve_class(fn, cls.name, &c)) return false;
  NameUses u;
  u.v = s.targets()[0]->name;
  for (auto& st : fn.mod.func->body) walk_uses(*st, u);
  u.assigned = u.assigns[u.v];
  // Numba finds the exception of `raise e` through e's one definition ("Unsupported constraint
  // encountered: raise e" otherwise); cujit makes it where it is raised, so e may be nothing else.
  if (u.assigned != 1 || u.other || (value.is(ast::Kind::Call) && !u.class_calls.empty()))
    unsupported_error(fn, u.other                  ? *u.other
                    : !u.raises.empty()      ? *u.raises[0]
                    : !u.class_calls.empty() ? *u.class_calls[0]
                                             : s,
                "an exception held in a variable ('" + u.v +
                    "') is supported when it is assigned once and only raised (`" + u.v + " = " + cls.name +
                    "(...)` then `raise " + u.v + "`): Unsupported constraint encountered: raise " + u.v);
  // The arguments are evaluated at the raise: only values that cannot have changed by then.
  if (value.is(ast::Kind::Call))
    for (const auto& a : value.args()) {
      const bool fixed = is_constant_arg(*a) || (a->is(ast::Kind::Name) && u.assigns[a->name] == 0);
      if (!fixed)
        unsupported_error(fn, *a,
                    "an argument of an exception held in a variable must be a literal or a name the function never "
                    "assigns (cujit makes the exception where it is raised): make the exception in the raise");
    }
  for (ast::Node* r : u.raises) {
    ast::NodePtr made = ast::clone(value);
    made->loc = r->exc()->loc;
    r->exc() = std::move(made);
  }
  for (ast::Node* r : u.class_calls) {  // `e = ValueError` ... `raise e("msg", x)`
    ast::NodePtr cls_name = ast::clone(value);
    cls_name->loc = r->exc()->func()->loc;
    r->exc()->func() = std::move(cls_name);
  }
  forget_nodes(fn, s);
  s.targets().clear();
  s.rhs().reset();
  s.kind = ast::Kind::Pass;
  return true;
}

}  // namespace cujit
