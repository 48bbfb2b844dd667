// Type inference with Numba's rules.
//
// Each FunctionInstance is typed by walking its body repeatedly. Each assignment defines a version
// of its variable with the value's type, and where versions meet (after an if, at a loop's head)
// a join holds their unification (Numba's SSA form and phis: typeinfer_ssa.h); the walk repeats
// until no version's type changes. Reading a variable before any typed assignment is
// tolerated on early passes (loops carry types backwards) and an error on the last one. Calls to
// other cujit functions instantiate them for the argument types at the call (device functions
// are specialised per call signature, as Numba does). Every error here points at a token.
#include "compiler/typeinfer.h"
#include "compiler/typeinfer_typer.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>
#include <utility>

#include "compiler/builtins.h"
#include "compiler/libdevice.h"
#include "compiler/overloads.h"
#include "compiler/fnval.h"
#include "compiler/parallel.h"

namespace cujit {


Type type_of_global(const GlobalValue& g) {
  switch (g.kind) {
    case GlobalValue::Kind::Int: return Type::scalar_of(Scalar::Int64);
    case GlobalValue::Kind::Float: return Type::scalar_of(Scalar::Float64);
    case GlobalValue::Kind::Bool: return Type::scalar_of(Scalar::Bool);
    case GlobalValue::Kind::Scalar: return Type::scalar_of(g.scalar);
    case GlobalValue::Kind::Module: return Type::module(g.module);
    case GlobalValue::Kind::DType: {
      if (g.of.known()) return Type::type_object(g.of);
      Type t = Type::dtype(g.scalar);
      t.record = g.record;  // a record type: only an array allocation's dtype (BuiltinTyper::array_alloc)
      return t;
    }
    case GlobalValue::Kind::EnumMember:
      return Type::enum_member(g.type_name, type_of_global(g.elems[0]), g.i != 0);
    case GlobalValue::Kind::Tuple: {
      std::vector<Type> items;
      for (const auto& x : g.elems) items.push_back(type_of_global(x));
      return Type::named_tuple(g.tclass, items);  // a plain tuple where tclass is null
    }
    case GlobalValue::Kind::Array: {  // a constant: read-only
      Type t = Type::array(g.scalar, (int)g.shape.size(), 'C');
      t.readonly = true;
      return t;
    }
    case GlobalValue::Kind::NoneValue: return Type::none();
    case GlobalValue::Kind::Opaque:  // a str (a global tuple's item: globals.h)
      return g.attr.rfind("str:", 0) == 0 ? Type::string() : Type::unknown();
    default: return Type::unknown();
  }
}

namespace detail {

void Typer::run() {
  FunctionInstance& fn = *prog_.fns[self_];
  ast::Node& def = *fn.mod.func;
  if (def.params.size() != fn.arg_types.size()) {
    error(def, std::string(fn.role == Role::Ufunc ? "the signature gives " : "called with ") +
                   std::to_string(fn.arg_types.size()) + " argument(s) but " + def.name +
                   "() takes " + std::to_string(def.params.size()));
  }
  // A name assigned anywhere in the function is local everywhere in it, as in Python.
  std::set<std::string> names;
  for (const auto& p : def.params) names.insert(p.name);
  assigned_names(def.body, names);
  for (const auto& n : names) fn.locals[n] = Type::unknown();
  bool returns_changed = false;
  for (int pass = 0; pass < 32; ++pass) {
    final_ = false;
    pending_ = -1;
    walk(def);
    // The return type so far, which a recursive call reads (typeinfer_calls.cpp): a pass that
    // changes it needs another.
    returns_changed = partial_return() && (fn.recursed || pending_ >= 0);
    if (!ssa_.changed() && !returns_changed) break;
  }
  // A recursive call through other functions of a function whose type is still unknown: the
  // caller waited on types this instance again once it knows more.
  if (pending_ >= 0 && pending_ != self_) throw PendingRecursion{pending_};
  // Still changing after every pass: a type that grows with each (`return (n, f(n - 1))`).
  if (returns_changed && fn.recursed) {
    const ast::Node* at = &def;
    for (const auto& [t, r] : returns_)
      if (t.tag != Type::Tag::None) at = r;
    error(*at, "Return type of recursive function does not converge: " + fn.src->name +
                   "() returns a type that grows with each level of its recursion");
  }
  final_ = true;
  walk(def);
  finish_return(def);
  check_lists_known(fn);  // an empty list nothing is appended to has no item type (typeinfer_lists.cpp)
  ssa_.finish(fn);
  // The plans name the loops' C++ variables, known only now.
  for (const ast::Node* loop : prange_loops_) fn.parallel_loops[loop] = plan_parallel_loop(*loop, fn);
}

void Typer::walk(ast::Node& def) {
  ssa_.begin_walk(def, fn().arg_types);
  returns_.clear();
  fn().dead_returns.clear();
  prange_loops_.clear();
  block(def.body);
}

[[noreturn]] void Typer::error(const ast::Node& at, const std::string& msg) {
  user_error(src(), at.loc, ErrorKind::Typing, msg);
}

[[noreturn]] void Typer::unsupported(const ast::Node& at, const std::string& msg) {
  user_error(src(), at.loc, ErrorKind::Unsupported, msg);
}

}  // namespace detail

int Program::source_index(const std::shared_ptr<FunctionSource>& src, const std::vector<std::string>& sigs) {
  std::vector<Signature> parsed;
  for (const auto& s : sigs) parsed.push_back(parse_signature(s));
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].get() != src.get() || declared[i].size() != parsed.size()) continue;
    bool same = true;
    for (size_t k = 0; same && k < parsed.size(); ++k) same = declared[i][k].str() == parsed[k].str();
    if (same) return (int)i;
  }
  sources.push_back(src);
  declared.push_back(std::move(parsed));
  return (int)sources.size() - 1;
}

int Program::instantiate(const std::shared_ptr<FunctionSource>& src, const std::vector<Type>& args,
                         const Type& declared_ret, Role role, const std::map<std::string, GlobalValue>& const_params) {
  // Constant parameters' values (ints, tuples of ints) as a key.
  auto key = [](const std::map<std::string, GlobalValue>& m) {
    std::string k;
    for (const auto& [n, g] : m) {
      k += n + "=";
      if (g.kind == GlobalValue::Kind::Tuple) for (const auto& x : g.elems) k += std::to_string(x.i) + ",";
      else k += std::to_string(g.i);
      k += ";";
    }
    return k;
  };
  const std::string want = key(const_params);
  for (size_t i = 0; i < fns.size(); ++i) {
    auto& f = *fns[i];
    if (!f.failed && f.src.get() == src.get() && f.arg_types == args && f.role == role &&
        f.declared_ret == declared_ret && key(f.const_params) == want) {
      return (int)i;  // also while it is being typed: a recursive call (typeinfer_calls.cpp)
    }
  }
  // Recursion with other argument types (f(x) calling f(x - 0.5)) makes another instance; a
  // chain of them that keeps growing (f(x) calling f((x, x))) never ends: Numba's runaway error.
  int same = 0;
  for (auto& f : fns) same += f->src.get() == src.get() && f->typing && !f->failed;
  if (same >= kMaxRecursiveInstances) return -1;
  auto inst = std::make_unique<FunctionInstance>();
  inst->src = src;
  inst->mod = parse_function(*this, *src);
  inst->arg_types = args;
  inst->const_params = const_params;
  inst->declared_ret = declared_ret;
  inst->role = role;
  inst->host_only = host_only;
  // Messages name what the user is compiling; an instance typed while another one is typing is
  // a function that one calls.
  bool entry = true;
  for (auto& f : fns) entry = entry && !f->typing;
  inst->compiled_as = role == Role::Kernel ? "a CUDA kernel"
                      : !host_only ? (role == Role::Ufunc ? "a CUDA ufunc (@vectorize(target='cuda'))" : "a CUDA device function")
                      : role == Role::Ufunc ? "a CPU ufunc (@vectorize)"
                      : entry && gufunc ? "a CPU gufunc (@guvectorize)" : "a CPU function (@jit)";
  int idx = (int)fns.size();
  inst->cpp_name = "cj_f" + std::to_string(idx) + "_" + src->name;
  inst->typing = true;
  fns.push_back(std::move(inst));
  try {
    lift_nested_functions(*this, *fns[idx]);
    resolve_before_typing(*fns[idx]);
    for (;;) {
      try {
        detail::Typer(*this, idx).run();
        break;
      } catch (const RestartTyping&) {  // a literal_unroll loop to unroll: rewritten, then typed again
        reset_typing(*fns[idx]);
        apply_unroll_decisions(*fns[idx]);
      }
    }
  } catch (CompileError&) {
    fns[idx]->typing = false;  // left unreachable; a caller may retry with constants (call_user)
    fns[idx]->failed = true;
    throw;
  } catch (const PendingRecursion&) {
    fns[idx]->typing = false;  // typed again by the instance it waits on (typeinfer_calls.cpp)
    fns[idx]->failed = true;
    throw;
  }
  fns[idx]->typing = false;
  check_recursive_uses(*this, idx);
  return idx;
}

}  // namespace cujit
