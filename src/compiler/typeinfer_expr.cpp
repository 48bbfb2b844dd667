// Typing of expressions (Typer, typeinfer_typer.h): the dispatch on the node kind, constants,
// names, globals (as compile-time constants), module attributes, enum members and attributes.
// Operators, subscripts and calls are in typeinfer_ops.cpp. Split from typeinfer.cpp.
#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>
#include <utility>

#include "compiler/record_views.h"
#include "compiler/typeinfer_rewrites.h"
#include "compiler/typeinfer_typer.h"
#include "compiler/builtins.h"
#include "compiler/libdevice.h"
#include "compiler/overloads.h"
#include "compiler/fnval.h"
#include "compiler/parallel.h"
#include "compiler/codegen.h"  // str_literal_code: a str item's constant

namespace cujit {
namespace {
bool holds_string(const Type& t) {
  if (t.tag == Type::Tag::String) return true;
  if (t.is_tuple())
    for (const auto& e : t.elems) if (holds_string(e)) return true;
  return false;
}
}  // namespace

std::string constant_literal(const GlobalValue& g) {
  switch (g.kind) {
    case GlobalValue::Kind::Int: return int_literal(Scalar::Int64, g.i, 0);
    case GlobalValue::Kind::Float: return float64_literal(g.f);
    case GlobalValue::Kind::Bool: return g.i ? "true" : "false";
    case GlobalValue::Kind::Scalar:
      if (g.scalar == Scalar::Bool) return g.i ? "true" : "false";
      if (g.scalar == Scalar::Float64) return float64_literal(g.f);
      if (g.scalar == Scalar::Float32) return "((float)" + float64_literal(g.f) + ")";
      if (is_complex(g.scalar))
        return std::string(scalar_cpp(g.scalar)) + "(" + float64_literal(g.f) + ", " + float64_literal(g.f_im) + ")";
      if (g.scalar == Scalar::Float16) return "((cj::f16)" + float64_literal(g.f) + ")";  // exact: g.f is a half
      return int_literal(g.scalar, g.i, g.u);
    case GlobalValue::Kind::EnumMember: return constant_literal(g.elems[0]);  // its value
    case GlobalValue::Kind::Tuple: {  // a nested tuple: its struct's aggregate initialiser
      std::string s = "{";
      for (size_t i = 0; i < g.elems.size(); ++i) s += (i ? ", " : "") + constant_literal(g.elems[i]);
      return s + "}";
    }
    case GlobalValue::Kind::Opaque:  // a str item of a global tuple: its text (CPU code only)
      if (g.attr.rfind("str:", 0) == 0) return str_literal_code(g.attr.substr(4));
      throw InternalError("constant_literal of a non-constant");
    default: throw InternalError("constant_literal of a non-constant");
  }
}

namespace detail {

Type Typer::set(ast::Node& e, Type t) {
  e.type = t;
  return t;
}

Type Typer::expr_as(ast::Node& e, ast::NodePtr form) {
  ast::Node& f = *form;
  record_form(fn(), e, std::move(form));
  return set(e, expr(f));
}

// Every node kind has a case here and there is no `default:`: a new kind fails to compile until
// it is handled (ast_cases.inc names the other category's kinds).
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
Type Typer::expr(ast::Node& e) {
  using K = ast::Kind;
  // A node typing gave a new form on an earlier pass is typed as that form (typed_form).
  if (auto r = fn().rewrites.find(&e); r != fn().rewrites.end()) return set(e, expr(*r->second));
  switch (e.kind) {
    case K::Constant: return set(e, constant(e));
    case K::Name: return set(e, name(e));
    case K::Attribute: return set(e, attribute(e));
    case K::BinOp: {
      // Python's constant folding ran before typing (resolve.cpp); what it left is no constant
      // Numba can type.
      if (int_constant_too_large(e)) error(e, "integer constant too large for int64 or uint64");
      Type a = operand(*e.lhs()), b = operand(*e.rhs());
      if (!a.known() || !b.known()) return set(e, Type::unknown());
      // operator.iadd(a, b) and the other in-place forms compute what the plain ones do on
      // numbers; on an array they would update it in place (the BinOp keeps the function's name).
      if (e.name.rfind("operator.i", 0) == 0 && e.name != "operator.invert" && !a.is_scalar())
        unsupported(e, e.name + "() is supported on numbers only (on a " + a.str() + " it would update it in place)");
      return set(e, binop_type(e, e.op, a, b));
    }
    case K::UnaryOp: return set(e, unary(e));
    case K::BoolOp: {
      Type r = Type::unknown();
      bool all_known = true;
      for (auto& v : e.values()) {
        conditional_ += v != e.values()[0];  // later operands may not run (a walrus in them: NamedExpr)
        Type t = expr(*v);
        conditional_ -= v != e.values()[0];
        if (!t.known()) { all_known = false; continue; }
        if (!t.is_scalar()) error(*v, "'and'/'or' on a " + t.str() + " is not supported");
        r = unify(r, t);
      }
      return set(e, all_known ? r : Type::unknown());
    }
    case K::Compare: {
      Type l = expr(*e.lhs());
      bool ok = l.known();
      ast::Node* ln = e.lhs().get();
      for (size_t i = 0; i < e.comparators().size(); ++i) {
        Type r = expr(*e.comparators()[i]);
        ast::Op op = e.ops[i];
        if (l.is_charseq() || r.is_charseq()) {  // a record's string field (typeinfer_charseq.cpp)
          check_charseq_compare(fn(), e, op, *ln, &l, *e.comparators()[i], &r);
          ok = ok && r.known();
          ln = e.comparators()[i].get();
          l = r;
          continue;
        }
        if (fixed_equality(l, op, r) >= 0 || fixed_contains(l, op, r) >= 0 || none_against_optional(l, op, r)) {
          if (l.tag == Type::Tag::String || r.tag == Type::Tag::String) refuse_gpu_string(fn(), e);
          ln = e.comparators()[i].get();  // typeinfer_compare.cpp: known from the types, no value unwrapped
          l = r;
          continue;
        }
        if (op != ast::Op::Is && op != ast::Op::IsNot) {  // x < y uses the values: unwrapped
          l = unwrapped(*ln, l);
          r = unwrapped(*e.comparators()[i], r);
        }
        ln = e.comparators()[i].get();
        if (l.known() && r.known() && (l.is_array() || r.is_array()) && op != ast::Op::Is && op != ast::Op::IsNot &&
            op != ast::Op::In && op != ast::Op::NotIn) {  // a < b on arrays is np.less (typeinfer_arrayexpr.cpp)
          if (e.comparators().size() != 1)  // a < b < c needs the truth of an array, which has none
            error(e, "the truth value of an array is ambiguous: chained comparisons of arrays are not supported");
          return set(e, type_array_operator(fn(), e, op, false, {l, r}, false));
        }
        if ((l.tag == Type::Tag::String || r.tag == Type::Tag::String) && op != ast::Op::Is && op != ast::Op::IsNot &&
            !l.is_list() && !r.is_list() && !l.is_tuple() && !r.is_tuple() && !r.is_dict() && !r.is_set()) {  // k in d: below
          refuse_gpu_string(fn(), e);  // typeinfer_strings.cpp
          if (l.known() && r.known() && !str_comparison_ok(l, op, r))
            error(e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l.str() + " and " + r.str());
          ok = ok && r.known();
          l = r;
          continue;
        }
        if ((op == ast::Op::In || op == ast::Op::NotIn) && l.known() && r.known() && !tuple_comparison_ok(l, op, r))
          error(e, "No implementation of function contains found for signature: contains(" + r.str() + ", " + l.str() +
                       "): 'in' takes a tuple of items of one type that compare with " + l.str());
        if (op == ast::Op::Is || op == ast::Op::IsNot) {
          if (l.tag != Type::Tag::None && r.tag != Type::Tag::None && l.known() && r.known() && !(l.is_enum() && r.is_enum()))
            unsupported(e, "'is' is only supported against None");
          if ((l.is_optional() && r.tag != Type::Tag::None) || (r.is_optional() && l.tag != Type::Tag::None))
            unsupported(e, "'is' is only supported against None");
        } else if (l.known() && r.known() && (!l.is_scalar() || !r.is_scalar()) && !tuple_comparison_ok(l, op, r) &&
                   !(l == r && l.tag == Type::Tag::EnumMember && (op == ast::Op::Eq || op == ast::Op::NotEq))) {
          error(e, std::string("'") + ast::op_spelling(op) + "' is not supported between " +
                       l.str() + " and " + r.str());
        } else if (l.known() && r.known() && l.is_scalar() && r.is_scalar() && (is_time(l.scalar) || is_time(r.scalar))) {
          std::string why;  // datetime64 with datetime64, timedelta64 with timedelta64, in units that meet
          if ((op == ast::Op::In || op == ast::Op::NotIn) || !time_compare_ok(l.scalar, r.scalar, &why))
            error(e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l.str() + " and " +
                         r.str() + (why.empty() ? "" : ": " + why));
        } else if (l.known() && r.known() && (is_complex(l.scalar) || is_complex(r.scalar)) && op != ast::Op::Eq &&
                   op != ast::Op::NotEq) {
          error(e, std::string("'") + ast::op_spelling(op) + "' is not supported between " + l.str() + " and " +
                       r.str() + ": complex numbers have no order");
        }
        ok = ok && r.known();
        l = r;
      }
      return set(e, ok ? Type::scalar_of(Scalar::Bool) : Type::unknown());
    }
    case K::IfExp: {
      truth(*e.test());
      ++conditional_;
      Type a = expr(*e.if_true()), b = expr(*e.if_false());
      --conditional_;
      if (!a.known() || !b.known()) return set(e, a.known() ? a : b);
      Type u = unify(a, b);
      if (u.is_optional() && !prog_.may_be_optional()) u = Type::unknown();  // None and a value: @jit code only
      if (!u.known()) error(e, "the two branches of this conditional expression have types " + a.str() + " and " + b.str() + ", which cannot be unified");
      return set(e, u);
    }
    case K::NamedExpr: {  // `(x := v)`: an assignment of v to x whose value is x's
      Type v = expr(*e.rhs());
      auto before = ssa_.cur.vars.find(e.target()->name);
      // Where it may not run, x keeps its earlier value in its earlier C++ variable, which
      // holds it only while the type is the same.
      if (conditional_ && v.known() && before != ssa_.cur.vars.end() && ssa_.type(before->second).known() &&
          ssa_.type(before->second) != v)
        unsupported(e, "an assignment expression that may not run (in an operand of and/or, or a branch of a conditional "
                       "expression) cannot give '" + e.target()->name + "' another type (" + ssa_.type(before->second).str() +
                       " before, " + v.str() + " here); assign it before the expression");
      assign(*e.target(), v, e);
      return set(e, e.target()->type);
    }
    case K::Tuple: {
      std::vector<Type> el;
      bool ok = true;
      for (auto& x : e.elts()) {
        Type t = expr(*x);
        ok = ok && t.known();
        // Tuples hold values: numbers, arrays, tuples (a string or a module has no run-time form).
        if (t.tag == Type::Tag::String) refuse_gpu_string(fn(), *x);
        if (t.tag == Type::Tag::Module || t.tag == Type::Tag::Function ||
            t.tag == Type::Tag::DType || t.tag == Type::Tag::Range || t.tag == Type::Tag::Void ||
            t.tag == Type::Tag::Iterator)
          unsupported(*x, "a tuple cannot hold a " + t.str() + " in compiled code");
        el.push_back(t);
      }
      return set(e, ok ? Type::tuple(el) : Type::unknown());
    }
    case K::Subscript: return set(e, subscript(e));
    case K::Call: return set(e, call(e));
    case K::List: {  // typeinfer_lists.cpp (refused in GPU code)
      std::vector<Type> items;
      for (auto& x : e.elts()) items.push_back(fn().host_only ? operand(*x) : Type::unknown());
      return set(e, type_list_literal(fn(), e, items));
    }
    case K::Dict: case K::Set: {  // typeinfer_dicts.cpp (refused in GPU code)
      std::vector<Type> items;
      for (auto& x : e.is(K::Set) ? e.elts() : e.keys_values()) items.push_back(fn().host_only ? operand(*x) : Type::unknown());
      return set(e, type_dict_literal(fn(), e, items));
    }
    case K::Slice: error(e, "a slice is only allowed inside []");
    case K::Starred: case K::ListComp: case K::Comprehension: case K::ArrayExpr:  // ArrayExpr: made after typing
#define CUJIT_AST_CASES_OF Stmt
#include "compiler/ast_cases.inc"
      unsupported(e, std::string("'") + ast::kind_name(e.kind) + "' expressions are not supported");
  }
  throw InternalError("typing: not a node kind");
}
#pragma GCC diagnostic pop

Type Typer::constant(ast::Node& e) {
  using T = ast::ConstValue::Tag;
  switch (e.cval.tag) {
    case T::Int:
      // Numba types an int literal that only fits 64 bits unsigned (0x9E3779B97F4A7C15) as uint64.
      if (e.cval.big_int && !e.cval.fits_uint64) error(e, "integer literal too large for int64 or uint64");
      return Type::scalar_of(e.cval.big_int ? Scalar::UInt64 : Scalar::Int64);
    case T::Float: return Type::scalar_of(Scalar::Float64);
    case T::Imag: return Type::scalar_of(Scalar::Complex128);
    case T::Bool: return Type::scalar_of(Scalar::Bool);
    case T::None: return Type::none();
    case T::Str: return Type::string();
    case T::Bytes: return bytes_literal_type(fn(), e);  // only a record's bytes field takes one
  }
  return Type::unknown();
}

Type Typer::name(ast::Node& e) {
  FunctionInstance& f = fn();
  if (f.locals.count(e.name)) {
    f.resolved[&e] = Resolved{Resolved::Kind::Local};
    auto v = ssa_.cur.vars.find(e.name);
    if (v == ssa_.cur.vars.end()) {  // maybe assigned later in a loop: only the final pass decides
      if (final_) error(e, "NameError: local variable '" + e.name + "' is used before it is assigned");
      return Type::unknown();
    }
    ssa_.read(&e, v->second);
    return ssa_.type(v->second);
  }
  if (auto n = f.nested.find(e.name); n != f.nested.end()) return global(e, n->second);  // a lifted def
  auto g = f.src->globals.find(e.name);
  if (g != f.src->globals.end()) return global(e, g->second);
  const BuiltinRow* b = e.name == kUnrollAny ? find_builtin("numba.literal_unroll") : find_builtin(e.name);
  if (b) {  // kUnrollAny: sum()'s loop (typeinfer_rewrites.cpp)
    Resolved r{Resolved::Kind::Builtin};
    r.builtin = b->id;
    f.resolved[&e] = r;
    return Type::function(b->name);
  }
  if (e.name == "None") return Type::none();
  // Not known yet: maybe assigned later in a loop. Only the final pass decides.
  if (final_) {
    python_builtin(e);
    error(e, "NameError: name '" + e.name + "' is not defined");
  }
  return Type::unknown();
}

// A Python builtin cujit lacks exists all the same: "not supported", never "not defined".
void Typer::python_builtin(const ast::Node& e) {
  static const std::set<std::string> numba_supports = {  // Numba's supported builtins
      "chr", "dict", "enumerate", "filter", "getattr", "hasattr", "hash",
      "isinstance", "iter", "list", "map", "next", "ord", "repr", "set", "slice",
      "sorted", "str", "sum", "tuple", "type", "zip"};
  static const std::set<std::string> others = {
      "aiter", "all", "anext", "any", "ascii", "bin", "breakpoint", "bytearray", "bytes", "callable",
      "classmethod", "compile", "copyright", "credits", "delattr", "dir", "eval", "exec", "exit",
      "format", "frozenset", "globals", "help", "hex", "id", "input", "issubclass", "license",
      "locals", "memoryview", "object", "oct", "open", "property", "quit", "reversed", "setattr",
      "staticmethod", "super", "vars"};
  if (numba_supports.count(e.name))
    unsupported(e, "the builtin " + e.name + "() is not supported in " + fn().compiled_as + " yet");
  if (others.count(e.name))
    unsupported(e, "the builtin " + e.name + "() is not supported in compiled code");
}

Type Typer::global(ast::Node& e, const GlobalValue& g) {
  FunctionInstance& f = fn();
  using GK = GlobalValue::Kind;
  switch (g.kind) {
    case GK::EnumClass: return Type::module("enum:" + e.name);  // Color.red, Color["red"]: enum_member_of
    case GK::NamedTupleClass: return Type::module("ntclass:" + e.name);  // called: type_named_tuple_call
    case GK::Int: case GK::Float: case GK::Bool: case GK::Scalar: case GK::EnumMember: {
      Resolved r{Resolved::Kind::Constant};
      r.literal = constant_literal(g);
      f.resolved[&e] = r;
      return type_of_global(g);
    }
    case GK::Module: {
      Resolved r{Resolved::Kind::Module};
      r.name = g.module;
      f.resolved[&e] = r;
      return Type::module(g.module);
    }
    case GK::ModuleAttr: return module_attr(e, g.module, g.attr);
    case GK::DType: {
      Resolved r{Resolved::Kind::DType};
      f.resolved[&e] = r;
      return type_of_global(g);  // a record's too
    }
    case GK::Function: {
      Resolved r{Resolved::Kind::UserFunction};
      f.resolved[&e] = r;
      Type t = Type::function(g.fn->name);
      t.user_fn = prog_.source_index(g.fn, g.sigs);
      return t;
    }
    case GK::Array: {
      Resolved r{Resolved::Kind::Constant};
      r.literal = "cj_const_" + f.src->name + "_" + e.name;
      f.resolved[&e] = r;
      f.const_arrays[r.literal] = &g;
      Type t = g.record ? Type::record_array(g.record, (int)g.shape.size(), 'C') : Type::array(g.scalar, (int)g.shape.size(), 'C');
      t.readonly = true;
      return t;
    }
    case GK::Tuple: {  // a constant: codegen builds the tuple from the items' literals
      Resolved r{Resolved::Kind::Constant};
      std::vector<Type> items;
      for (const auto& x : g.elems) {
        std::string item;
        if (x.kind == GK::Array) {  // a constant array, as a global one (its symbol)
          item = "cj_const_" + f.src->name + "_" + e.name + "_" + std::to_string(items.size());
          f.const_arrays[item] = &x;
        } else {
          item = constant_literal(x);
        }
        r.literal += (items.empty() ? "" : ", ") + item;
        r.items.push_back(item);
        items.push_back(type_of_global(x));
      }
      f.resolved[&e] = r;
      Type t = Type::named_tuple(g.tclass, items);  // a plain tuple where tclass is null
      if (holds_string(t)) refuse_gpu_string(f, e);  // strs are CPU code's
      return t;
    }
    case GK::Foreign: {  // a call types it (type_foreign_call); it is no value of its own
      record_foreign(prog_, f, e, g);
      Resolved r{Resolved::Kind::Builtin};
      r.name = g.attr;
      f.resolved[&e] = r;
      return Type::function(kForeignPrefix + g.attr);
    }
    case GK::NoneValue: return Type::none();  // `X is None` is then known (constant_branch)
    case GK::Link:  // " link" is no Python name
    case GK::Opaque:
      if (g.attr.rfind("str:", 0) == 0) {  // a str global: a constant (its text; codegen_strings.cpp)
        refuse_gpu_string(f, e);
        Resolved r{Resolved::Kind::Constant};
        r.literal = g.attr.substr(4);
        f.resolved[&e] = r;
        return Type::string();
      }
      error(e, "Untyped global name '" + e.name + "': cannot determine Numba type of " + g.type_name);
  }
  return Type::unknown();
}

// `module.attr`, from an Attribute node or a `from module import attr` global.
Type Typer::module_attr(ast::Node& e, const std::string& module, const std::string& attr) {
  FunctionInstance& f = fn();
  std::string q = module + "." + attr;
  if (const ConstRow* c = find_constant(q)) {
    Resolved r{Resolved::Kind::Constant};
    r.literal = c->literal;
    f.resolved[&e] = r;
    return Type::scalar_of(Scalar::Float64);
  }
  if (const BuiltinRow* b = find_builtin(q)) {
    Resolved r{Resolved::Kind::Builtin};
    r.builtin = b->id;
    f.resolved[&e] = r;
    return Type::function(q);
  }
  // A module's Python function the snapshot carries under its qualified name (cuda.random.*).
  auto qualified = f.src->globals.find(q);
  if (qualified != f.src->globals.end()) return global(e, qualified->second);
  if (module == "numba" && attr == "cuda") {  // numba.cuda.grid(1) after `import numba`
    Resolved r{Resolved::Kind::Module};
    r.name = "cuda";
    f.resolved[&e] = r;
    return Type::module("cuda");
  }
  if (module == "numba" && attr == "types") {  // numba.types.float32
    Resolved r{Resolved::Kind::Module};
    r.name = "numba.types";
    f.resolved[&e] = r;
    return Type::module("numba.types");
  }
  if (module == "numba" && attr == "typed") {  // numba.typed.List() (typeinfer_lists.cpp)
    Resolved r{Resolved::Kind::Module};
    r.name = "numba.typed";
    f.resolved[&e] = r;
    return Type::module("numba.typed");
  }
  if (module == "numba.types" && attr == "unicode_type") {  // typed.List.empty_list(types.unicode_type)
    f.resolved[&e] = Resolved{Resolved::Kind::DType};
    return Type::type_object(Type::string());
  }
  Scalar sc;
  if (module == "numpy" ? scalar_from_numpy_name(attr, &sc) && attr != "int" && attr != "float" && attr != "bool"
                        : (module == "cuda" || module == "numba" || module == "numba.types") && scalar_from_name(attr, &sc) &&
                              attr != "int" && attr != "float" && attr != "bool") {
    f.resolved[&e] = Resolved{Resolved::Kind::DType};
    return Type::dtype(sc);
  }
  if (module == "numpy" && attr == "newaxis")  // the constant None before typing (resolve.cpp)
    throw InternalError("np.newaxis was not resolved before typing");
  if (module == "numpy" && (attr == "random" || attr == "linalg")) {
    Resolved r{Resolved::Kind::Module};
    r.name = "numpy." + attr;
    f.resolved[&e] = r;
    return Type::module("numpy." + attr);
  }
  if (module == "cuda.libdevice") {  // libdevice.sinf, or `from numba.cuda.libdevice import sinf`
    if (!find_libdevice(attr)) error(e, "Unknown attribute '" + attr + "' of module 'numba.cuda.libdevice'");
    f.resolved[&e] = Resolved{Resolved::Kind::Builtin};
    return Type::function(q);
  }
  if (module == "cuda") {
    // CPU code has no thread, block or warp to ask about (Numba: a TypingError); the simulator's
    // values must not leak into a @jit function as a silent 0.
    if (f.host_only && (attr == "threadIdx" || attr == "blockIdx" || attr == "blockDim" || attr == "gridDim" ||
                        attr == "laneid" || attr == "warpsize"))
      error(e, "cuda." + attr + " is GPU code: it cannot be used in " + f.compiled_as +
                   "; compile the function with " + gpu_decorator(f) + " instead");
    if (attr == "threadIdx" || attr == "blockIdx" || attr == "blockDim" || attr == "gridDim") {
      Resolved r{Resolved::Kind::CudaDim};
      r.name = attr;
      f.resolved[&e] = r;
      return Type::module("cuda." + attr);
    }
    if (attr == "local" || attr == "shared" || attr == "atomic" || attr == "const" || attr == "random" ||
        attr == "libdevice" || attr == "cg" || attr == "fp16") {
      Resolved r{Resolved::Kind::Module};
      r.name = "cuda." + attr;
      f.resolved[&e] = r;
      return Type::module("cuda." + attr);
    }
    if (attr == "laneid" || attr == "warpsize") {
      Resolved r{Resolved::Kind::CudaDim};
      r.name = attr;
      f.resolved[&e] = r;
      return Type::scalar_of(Scalar::Int32);
    }
  }
  error(e, "Unknown attribute '" + attr + "' of module '" + module + "'");
}

// Member `member` of the enum class held by global `var`: a constant of its value.
Type Typer::enum_member_of(ast::Node& e, const std::string& var, const std::string& member) {
  FunctionInstance& f = fn();
  const GlobalValue& cls = f.src->globals.at(var);
  for (const auto& m : cls.elems) {
    if (m.attr != member) continue;
    Resolved r{Resolved::Kind::Constant};
    r.literal = constant_literal(m);
    f.resolved[&e] = r;
    return type_of_global(m);
  }
  error(e, "Unknown attribute '" + member + "' of type class(" + cls.type_name.substr(0, cls.type_name.find('@')) + ")");
}

Type Typer::attribute(ast::Node& e) {
  Type v = expr(*e.value());
  if (!v.known()) return Type::unknown();
  if (v.tag == Type::Tag::Module && v.name.rfind("enum:", 0) == 0) return enum_member_of(e, v.name.substr(5), e.name);
  if (v.tag == Type::Tag::Module && v.name.rfind("ntclass:", 0) == 0)  // Numba: no attributes of the class
    error(e, "Unknown attribute '" + e.name + "' of type class(" + fn().src->globals.at(v.name.substr(8)).module + ")");
  if (v.is_enum()) {  // Numba: .value, and no .name
    if (e.name != "value") error(e, "Unknown attribute '" + e.name + "' of type " + v.str());
    return v.tag == Type::Tag::EnumMember ? v.elems[0] : Type::scalar_of(v.scalar);
  }
  if (v.tag == Type::Tag::Function && (v.name == "numba.typed.List" || v.name == "numba.typed.Dict"))
    return module_attr(e, v.name, e.name);  // typed.List.empty_list, typed.Dict.empty (builtins.def)
  if (v.tag == Type::Tag::Module) {
    const std::string& m = v.name;
    if (m == "cuda.local" || m == "cuda.shared" || m == "cuda.atomic" || m == "cuda.const" || m == "cuda.random" ||
        m == "cuda.libdevice" || m == "cuda.cg" || m == "cuda.fp16")
      return module_attr(e, m, e.name);
    if (m.rfind("cuda.", 0) == 0) {  // threadIdx.x and friends
      if (e.name == "x" || e.name == "y" || e.name == "z") {
        Resolved r{Resolved::Kind::CudaDim};
        r.name = m.substr(5) + "." + e.name;
        fn().resolved[&e] = r;
        return Type::scalar_of(Scalar::Int32);
      }
      error(e, "Unknown attribute '" + e.name + "' of " + m);
    }
    return module_attr(e, m, e.name);
  }
  if (v.is_array()) {
    if (e.name == "shape" || e.name == "strides")
      return Type::tuple(std::vector<Type>(v.ndim, Type::scalar_of(Scalar::Int64)));
    if (e.name == "size" || e.name == "ndim" || e.name == "itemsize" || e.name == "nbytes")
      return Type::scalar_of(Scalar::Int64);
    if (e.name == "dtype" && !v.record) return Type::dtype(v.scalar);
    // a.flat: Numba's flat iterator, iterated (for, enumerate, zip), indexed, assigned through,
    // measured (len); its elements in C order whatever the layout. It has no run-time form of
    // its own: code reads the array (codegen's attribute, index_expr and plan_iteration).
    if (e.name == "flat") return Type::iterator("flat", {v});
    if (e.name == "T") {  // a view with the axes reversed (prelude/common.h), in kernels too
      Type t = v;
      if (v.ndim > 1) t.layout = v.layout == 'C' ? 'F' : v.layout == 'F' ? 'C' : 'A';
      return t;
    }  // a type value: cuda.local.array(n, a.dtype)
    if (Type parts; complex_array_attr(v, e.name, &parts)) return parts;  // a.real / a.imag (typeinfer_complex.cpp)
    if (Type field; record_array_field(fn(), e, v, e.name, &field)) return field;  // a.x of records (typeinfer_records.cpp)
    error(e, "Unknown attribute '" + e.name + "' of type " + v.str());
  }
  if (v.is_record()) return record_field_type(record_field(fn(), e, v, e.name), v.readonly);  // r.x
  if (v.is_named_tuple()) return named_tuple_field(fn(), e, v, e.name);  // p.x
  if (v.is_scalar()) {  // z.real and z.imag are floats; a real number's are itself and 0
    if (e.name == "real" || e.name == "imag") return Type::scalar_of(complex_part(v.scalar));
  }
  error(e, "Unknown attribute '" + e.name + "' of type " + v.str());
}

}  // namespace detail
}  // namespace cujit
