// Code generation of expressions (Emitter, codegen_emitter.h): names and their versions,
// constants and global arrays, attributes, operators, and subscripts with their index and race
// checks. Calls are in codegen_calls.cpp. Split from codegen.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

#include "compiler/record_views.h"
#include "compiler/codegen_emitter.h"
#include "compiler/codegen_foreign.h"
#include "compiler/codegen_iter.h"
#include "compiler/fnval.h"
#include "compiler/libdevice.h"
#include "compiler/layout.h"

namespace cujit {
namespace detail {

std::string Emitter::truth(const ast::Node& e) {
  std::string c = expr(e);
  if (e.type.is_scalar(Scalar::Bool)) return c;
  if (e.type.tag == Type::Tag::None) return "false";
  if (e.type.tag == Type::Tag::String) return "cj::str_truth(" + c + ")";
  return "((" + c + ") != 0)";
}

const Resolved* Emitter::resolved(const ast::Node& e) {
  auto it = fn_->resolved.find(&e);
  return it == fn_->resolved.end() ? nullptr : &it->second;
}

std::string Emitter::expr(const ast::Node& e) {
  if (!fn_->unwrap.empty() && fn_->unwrap.count(&e)) {  // an optional used as a value (typeinfer.h)
    const std::string msg = "expected " + e.type.str() + ", got None";
    if (fn_->host_only) return "cj::unwrap(" + value(e) + ", \"" + msg + "\")";
    // GPU code: numba-cuda's TypeError, through the raise sites (codegen_exc.cpp).
    const std::string key = std::string(target_ == Target::Host ? "sim:" : "gpu:") + fn_->mod.source.filename + ":" +
                            std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ":unwrap:" + e.type.str();
    const int site = named_raise_site(prog_, *fn_, key, "TypeError", msg, e.loc.line);
    return "cj::unwrap_or_raise(" + value(e) + ", " + std::to_string(site) + ")";
  }
  return value(e);
}

// Every node kind has a case here and there is no `default:`: a new kind fails to compile until
// it is handled (ast_cases.inc names the other category's kinds).
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
std::string Emitter::value(const ast::Node& e) {
  using K = ast::Kind;
  switch (e.kind) {
    case K::Constant: return constant(e);
    case K::Name: {
      if (is_compile_time_value(e.type)) return "cj::Unit{}";
      const Resolved* r = resolved(e);
      if (r && r->kind == Resolved::Kind::Constant && e.type.is_array()) return const_array(r->literal, e.type);
      if (r && r->kind == Resolved::Kind::Constant && e.type.is_tuple()) {
        std::string s;  // the items' literals; an array item is a view of its constant array
        for (size_t i = 0; i < r->items.size(); ++i)
          s += (i ? ", " : "") + (e.type.elems[i].is_array() ? const_array(r->items[i], e.type.elems[i]) : r->items[i]);
        return type(e.type) + "{" + s + "}";
      }
      if (r && r->kind == Resolved::Kind::Constant) return constant(*r, e.type);
      if (r && r->kind == Resolved::Kind::Local) return r->name.empty() ? "((void)0)" : r->name;  // no variable: None
      throw InternalError("codegen: name '" + e.name + "' used as a value");
    }
    case K::Attribute: return attribute(e);
    case K::BinOp: return binop(e.op, expr(*e.lhs()), e.lhs()->type, expr(*e.rhs()), e.rhs()->type, e.type);
    case K::UnaryOp: return unary(e);
    case K::BoolOp: return boolop(e);
    case K::Compare: return compare(e);
    case K::IfExp:
      return "(" + truth(*e.test()) + " ? " + convert(expr(*e.if_true()), e.if_true()->type, e.type) + " : " +
             convert(expr(*e.if_false()), e.if_false()->type, e.type) + ")";
    case K::NamedExpr: {  // `(x := v)`: the store as a C++ assignment expression, whose value is x's
      const LocalVar& to = fn_->stores.at(e.target().get());
      if (to.cpp.empty()) return expr(*e.rhs());  // None: no value to keep
      return "(" + to.cpp + " = " + convert(expr(*e.rhs()), e.rhs()->type, to.type) + ")";
    }
    case K::Tuple: {
      std::string s = type(e.type) + "{";
      for (size_t i = 0; i < e.elts().size(); ++i) s += (i ? ", " : "") + expr(*e.elts()[i]);
      return s + "}";
    }
    case K::Subscript: return subscript(e);
    case K::Call: return call(e);
    case K::Dict: case K::Set:  // codegen_dicts.cpp
      return dict_literal_code(*fn_, e, [this](const ast::Node& n) { return expr(n); },
                               [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); });
    case K::ArrayExpr: return array_expr(e, "");  // codegen_arrayexpr.cpp
    case K::List:  // codegen_lists.cpp
      return list_literal_code(*fn_, e, [this](const ast::Node& n) { return expr(n); },
                               [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); });
    case K::Slice: case K::Starred: case K::ListComp: case K::Comprehension:
#define CUJIT_AST_CASES_OF Stmt
#include "compiler/ast_cases.inc"
      throw InternalError(std::string("codegen: expression ") + ast::kind_name(e.kind));
  }
  throw InternalError("codegen: not a node kind");
}
#pragma GCC diagnostic pop

// A global array: emitted once at file scope (constant memory on the GPU), used through a view.
std::string Emitter::const_array(const std::string& sym, const Type& t) {
  const GlobalValue& g = *fn_->const_arrays.at(sym);
  if (g.record) return record_const_array(sym, g, target_, emitted_structs_.insert(sym).second ? &structs_ : nullptr);
  std::string T = scalar_cpp(g.scalar);
  if (emitted_structs_.insert(sym).second) {
    size_t n = g.bytes.size() / scalar_size(g.scalar);
    // NaN and inf have no constant-expression spelling in NVRTC: an array holding one is
    // written as the bits of its floats (a complex element's two parts each), in unsigned
    // integers of their width, and read through the typed view below (the array is never
    // written, so the types never alias a store).
    const bool cplx = is_complex(g.scalar);
    const Scalar part = cplx ? complex_part(g.scalar) : g.scalar;
    const size_t nparts = cplx ? 2 * n : n;
    bool bits = false;
    for (size_t i = 0; i < nparts && (part == Scalar::Float32 || part == Scalar::Float64); ++i) {
      double v;
      if (part == Scalar::Float32) { float x; std::memcpy(&x, g.bytes.data() + 4 * i, 4); v = x; }
      else std::memcpy(&v, g.bytes.data() + 8 * i, 8);
      bits = bits || !std::isfinite(v);
    }
    structs_ << (target_ == Target::CUDA ? "__constant__ " : "static ") << "const ";
    if (bits) {  // the values' bits, exactly (NaN's sign and payload too)
      const int w = scalar_size(part);
      structs_ << (w == 4 ? "uint32_t" : "uint64_t") << " " << sym << "[" << nparts << "] = {";
      for (size_t i = 0; i < nparts; ++i) {
        uint64_t u = 0;
        std::memcpy(&u, g.bytes.data() + i * w, w);
        structs_ << (i ? ", " : "") << u << "ULL";
      }
      structs_ << "};\n";
    } else {
      structs_ << T << " " << sym << "[" << (n ? n : 1) << "] = {";
      for (size_t i = 0; i < n; ++i) {
        const char* p = g.bytes.data() + i * scalar_size(g.scalar);
        char buf[128];
        switch (scalar_kind(g.scalar)) {
          case 'b': std::snprintf(buf, sizeof buf, "%s", *p ? "true" : "false"); break;
          case 'f': {
            if (g.scalar == Scalar::Float16) {  // its bits: a constant expression for any value
              uint16_t b;
              std::memcpy(&b, p, 2);
              std::snprintf(buf, sizeof buf, "cj::f16(cj::f16_bits{}, 0x%04x)", b);
              break;
            }
            double v;
            if (g.scalar == Scalar::Float32) { float x; std::memcpy(&x, p, 4); v = x; } else { std::memcpy(&v, p, 8); }
            std::snprintf(buf, sizeof buf, g.scalar == Scalar::Float32 ? "%.9g" : "%.17g", v);
            if (!std::strpbrk(buf, ".eE")) std::strcat(buf, ".0");
            if (g.scalar == Scalar::Float32) std::strcat(buf, "f");
            break;
          }
          case 'i': case 'u': {
            int64_t v = 0; uint64_t u = 0;
            int sz = scalar_size(g.scalar);
            if (is_signed(g.scalar)) {
              if (sz == 1) v = *(const int8_t*)p; else if (sz == 2) { int16_t x; std::memcpy(&x, p, 2); v = x; }
              else if (sz == 4) { int32_t x; std::memcpy(&x, p, 4); v = x; } else std::memcpy(&v, p, 8);
              std::snprintf(buf, sizeof buf, "(%s)%lldLL", T.c_str(), (long long)v);
            } else {
              std::memcpy(&u, p, sz);
              std::snprintf(buf, sizeof buf, "(%s)%lluULL", T.c_str(), (unsigned long long)u);
            }
            break;
          }
          case 'c': {  // T(re, im), each part as its float's literal
            double re, im;
            if (g.scalar == Scalar::Complex64) { float x[2]; std::memcpy(x, p, 8); re = x[0]; im = x[1]; }
            else { double x[2]; std::memcpy(x, p, 16); re = x[0]; im = x[1]; }
            std::snprintf(buf, sizeof buf, "%s(%.17g, %.17g)", T.c_str(), re, im);
            break;
          }
          case 'M': case 'm': {  // datetime64/timedelta64: T{count}
            int64_t v;
            std::memcpy(&v, p, 8);
            std::snprintf(buf, sizeof buf, "%s", int_literal(g.scalar, v, 0).c_str());
            break;
          }
          default: throw InternalError("no constant spelling for " + t.str());
        }
        structs_ << (i ? ", " : "") << buf;
      }
      structs_ << "};\n";
    }
  }
  std::string s = "cj::c_array<" + T + ", " + std::to_string(t.ndim) + ">((" + T + "*)" + sym;
  for (auto d : g.shape) s += ", (int64_t)" + std::to_string(d);
  return s + ")";
}

std::string Emitter::constant(const ast::Node& e) {
  using T = ast::ConstValue::Tag;
  switch (e.cval.tag) {
    // Spelled as int64_t, not long long: on Linux they are different types to templates.
    case T::Int:
      if (e.cval.big_int) return int_literal(Scalar::UInt64, 0, (uint64_t)e.cval.i);  // 2**63 .. 2**64-1
      return int_literal(Scalar::Int64, e.cval.i, 0);
    case T::Float: return float64_literal(e.cval.f);
    case T::Imag: return "cj::complex128(0.0, " + float64_literal(e.cval.f) + ")";
    case T::Bool: return e.cval.b ? "true" : "false";
    case T::None: return "0";
    case T::Str:
      if (e.type.is_charseq()) return charseq_literal_code(e);  // met a record's 'U' field (typeinfer_charseq.cpp)
      return str_literal_code(e.cval.s);  // @jit code only (typing refuses it elsewhere)
    case T::Bytes: return charseq_literal_code(e);
  }
  return "0";
}

std::string Emitter::attribute(const ast::Node& e) {
  if (is_compile_time_value(e.type)) return "cj::Unit{}";
  const Resolved* r = resolved(e);
  if (r && r->kind == Resolved::Kind::Constant) return constant(*r, e.type);
  if (r && r->kind == Resolved::Kind::CudaDim) {
    std::string n = r->name;
    for (auto& c : n) if (c == '.') c = '_';
    return "CJ_" + n;
  }
  if (e.value()->type.is_enum()) return expr(*e.value());  // .value (typing allows no other): the member is its value
  const Type& v = e.value()->type;
  if (is_flat_iter(e.type)) return expr(*e.value());  // a.flat is read through the array itself
  if (v.is_array()) {
    std::string a = expr(*e.value());
    if (e.name == "shape" || e.name == "strides") {
      std::string s = type(e.type) + "{";
      for (int i = 0; i < v.ndim; ++i) s += (i ? ", " : "") + a + "." + e.name + "[" + std::to_string(i) + "]";
      return s + "}";
    }
    if (e.name == "size") return "cj::size(" + a + ")";
    if (e.name == "ndim") return "((int64_t)" + std::to_string(v.ndim) + ")";
    if (e.name == "dtype") return "cj::Unit{}";  // a type: compile-time only
    if (e.name == "T") return "cj::npa_transpose(" + a + ")";
    if (e.name == "real" || e.name == "imag") return emit_complex_array_attr(v, e.name, a);  // views
    if (v.record && v.record->find(e.name)) return record_array_field_view(v, *v.record->find(e.name), a, e.type);  // a.x
    const std::string item = v.record ? record_cpp(*v.record) : std::string(scalar_cpp(v.scalar));
    if (e.name == "itemsize") return "((int64_t)sizeof(" + item + "))";
    if (e.name == "nbytes") return "(cj::size(" + a + ") * (int64_t)sizeof(" + item + "))";
  }
  if (v.is_scalar() && is_complex(v.scalar) && (e.name == "real" || e.name == "imag"))
    return "(" + expr(*e.value()) + ")." + (e.name == "real" ? "re" : "im");
  if (v.is_record()) return record_field_read(*v.record, *v.record->find(e.name), expr(*e.value()));  // r.x
  if (v.is_named_tuple()) return "(" + expr(*e.value()) + ").f" + std::to_string(v.tclass->field(e.name));  // p.x
  if (v.is_scalar() && e.name == "real") return expr(*e.value());
  if (v.is_scalar() && e.name == "imag") return "((" + std::string(scalar_cpp(v.scalar)) + ")0)";
  throw InternalError("codegen: attribute " + e.name);
}

std::string Emitter::binop(ast::Op op, const std::string& a, const Type& ta, const std::string& b,
                  const Type& tb, const Type& result) {
  using O = ast::Op;
  if (ta.is_list() || tb.is_list()) return list_binop_code(op, a, ta, b, tb, result);  // codegen_lists.cpp
  if (ta.tag == Type::Tag::String || tb.tag == Type::Tag::String) return str_binop_code(op, a, ta, b);  // codegen_strings.cpp
  if (ta.is_set()) return set_binop_code(op, a, b);  // codegen_dicts.cpp
  if (ta.is_tuple()) {  // tuple concatenation: each operand evaluated once (it may be a call)
    const std::string x = "cj_ca" + std::to_string(tmp_++), y = "cj_cb" + std::to_string(tmp_++);
    std::string s = "([&]() { auto " + x + " = " + a + "; auto " + y + " = " + b + "; return " + type(result) + "{";
    int k = 0;
    for (size_t i = 0; i < ta.elems.size(); ++i) s += (k++ ? ", " : "") + x + ".f" + std::to_string(i);
    for (size_t i = 0; i < tb.elems.size(); ++i) s += (k++ ? ", " : "") + y + ".f" + std::to_string(i);
    return s + "}; }())";
  }
  if (op == O::MatMult && ta.is_array() && tb.is_array()) {  // np.dot's (prelude/host_linalg.h)
    allocates_ = true;
    return "cj::np_dot(" + a + ", " + b + ")";
  }
  if ((ta.is_scalar() && is_time(ta.scalar)) || (tb.is_scalar() && is_time(tb.scalar)))
    return emit_time_binop(op, a, ta, b, tb, result);  // codegen_datetime.cpp: units and NaT
  std::string T = type(result);
  auto c = [&](const std::string& x, const Type& t) { return convert(x, t, result); };
  if ((op == O::Div || op == O::FloorDiv || op == O::Mod) && prog_.debug_checks && !fn_->host_only &&
      result.is_scalar() && !is_complex(result.scalar) && !is_bool(result.scalar))
    return zero_division_code(prog_, *fn_, op, result, line_, target_ == Target::Host, c(a, ta), c(b, tb));
  switch (op) {
    case O::Add: return "(" + c(a, ta) + " + " + c(b, tb) + ")";
    case O::Sub: return "(" + c(a, ta) + " - " + c(b, tb) + ")";
    case O::Mult: return "(" + c(a, ta) + " * " + c(b, tb) + ")";
    case O::Div:
      if (prog_.python_errors) return "cj::py_truediv(" + c(a, ta) + ", " + c(b, tb) + ")";
      return "(" + c(a, ta) + " / " + c(b, tb) + ")";
    case O::FloorDiv: return std::string(prog_.python_errors ? "cj::py_floordiv(" : "cj::floordiv(") + c(a, ta) + ", " + c(b, tb) + ")";
    case O::Mod: return std::string(prog_.python_errors ? "cj::py_mod(" : "cj::pymod(") + c(a, ta) + ", " + c(b, tb) + ")";
    case O::Pow:
      if (is_float(result.scalar) && tb.is_scalar() && is_integral(tb.scalar))
        return std::string(prog_.host_only ? "cj::py_powi(" : "cj::powi(") + c(a, ta) + ", " + b + ")";
      // The exponent in its own type: a uint64 above 2**63 is not negative (Numba's int_power).
      if (is_integral(result.scalar))
        return std::string(prog_.python_errors ? "cj::py_ipow(" : "cj::ipow(") + c(a, ta) + ", " +
               (tb.is_scalar() && is_integral(tb.scalar) ? b : c(b, tb)) + ")";
      return "cj::pow(" + c(a, ta) + ", " + c(b, tb) + ")";
    case O::BitAnd: return "((" + T + ")(" + c(a, ta) + " & " + c(b, tb) + "))";
    case O::BitOr: return "((" + T + ")(" + c(a, ta) + " | " + c(b, tb) + "))";
    case O::BitXor: return "((" + T + ")(" + c(a, ta) + " ^ " + c(b, tb) + "))";
    case O::LShift: return "cj::lshift(" + c(a, ta) + ", " + c(b, tb) + ")";
    case O::RShift: return "cj::rshift(" + c(a, ta) + ", " + c(b, tb) + ")";
    default: throw InternalError(std::string("codegen: operator ") + ast::op_spelling(op));
  }
}

// Operators on values (codegen_values.cpp).
ValueContext Emitter::values() {
  return {[this](const ast::Node& n) { return expr(n); }, [this](const ast::Node& n) { return truth(n); },
          [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); },
          [this](const Type& t) { return type(t); }, &tmp_, prog_.python_errors};
}

// `"name", "{fileN}:LINE"`: the array and the user's line in a simulator message. The file goes
// by its number, which the dispatcher replaces (program_files): a path in the text would defeat
// the cache for moved files. A race names two accesses, often on one line (s[t] += s[t + h]), so
// its sites add the array's 1-based column: "{fileN}:LINE:COL".
std::string Emitter::site(const ast::Node& array, const ast::Node& at) {
  const std::string name = array.is(ast::Kind::Name) ? array.name : "array";
  std::string where = "{file" + std::to_string(file_number(fn_->mod.source.filename)) + "}:" + std::to_string(at.loc.line);
  if (race_checked() && array.loc.col >= 0)
    where += ":" + std::to_string(array.loc.col + fn_->mod.source.col_offset + 1);
  return "\"" + name + "\", \"" + where + "\"";
}

std::string Emitter::index_expr(const ast::Node& e, Access access) {
  if (is_flat_iter(e.value()->type))  // a.flat[k]: a reference to the k-th element in C order (prelude/common.h)
    return "cj::flat_at(" + expr(*e.value()) + ", (int64_t)(" + expr(*e.index()) + "))";
  std::vector<const ast::Node*> idx;
  if (e.index()->is(ast::Kind::Tuple)) for (auto& x : e.index()->elts()) idx.push_back(x.get());
  else idx.push_back(e.index().get());
  bool any_slice = false;  // a view: a slice or a new axis (None) among the indices
  for (auto* x : idx) any_slice = any_slice || x->is(ast::Kind::Slice) || x->type.tag == Type::Tag::None;  // (a slice's type is None too)
  // The simulator checks every index (host target, GPU code): the array's name and the user's
  // line go into the message. Taking a sub-array reads nothing, so only elements are raced.
  // With debug=True the GPU code checks too, passing the access's number (a CheckSite): the
  // device has no use for the strings, and the dispatcher has them. @jit(boundscheck=True)
  // raises IndexError (_bc). A view's integer indices are checked as elements' are.
  const bool checked = index_checked(), race = race_checked() && !e.type.is_array() && !any_slice;
  const bool gpu_checked = target_ == Target::CUDA && prog_.debug_checks, bc = fn_->host_only && prog_.boundscheck;
  std::string s = any_slice ? "cj::view" : e.type.is_array() ? "cj::subarray" : "cj::elem";
  s += race ? "_race" : checked || gpu_checked ? "_checked" : bc ? "_bc" : "";
  s += (any_slice ? "<" + std::to_string(e.type.ndim) + ">(" : "(") + expr(*e.value());
  if (checked) s += ", " + site(*e.value(), e);
  if (race) s += ", " + std::to_string(access);
  if (gpu_checked) {
    const std::string name = e.value()->is(ast::Kind::Name) ? e.value()->name : "array";
    const std::string where = "{file" + std::to_string(file_number(fn_->mod.source.filename)) + "}:" + std::to_string(e.loc.line);
    s += ", " + std::to_string(sites_.size());
    sites_.push_back({name, where});
  }
  if (!any_slice && idx.size() == 1 && idx[0]->type.is_tuple())  // a[t] for a tuple t: its items
    return tuple_indexed(s, *idx[0]);
  if (!any_slice) {
    for (auto* x : idx) s += ", (int64_t)(" + expr(*x) + ")";
    return s + ")";
  }
  for (auto* x : idx) {
    if (!x->is(ast::Kind::Slice) && x->type.tag == Type::Tag::None) { s += ", cj::ix_new()"; continue; }
    if (!x->is(ast::Kind::Slice)) { s += ", cj::ix_int((int64_t)(" + expr(*x) + "))"; continue; }
    auto part = [&](const ast::NodePtr& p, const char* dflt) {
      return p && p->type.tag != Type::Tag::None ? "(int64_t)(" + expr(*p) + ")" : std::string(dflt);
    };
    int has = (x->lower() && x->lower()->type.tag != Type::Tag::None ? 1 : 0) | (x->upper() && x->upper()->type.tag != Type::Tag::None ? 2 : 0);
    s += ", cj::ix_slice(" + part(x->lower(), "0") + ", " + part(x->upper(), "0") + ", " + part(x->step(), "1") + ", " + std::to_string(has) + ")";
  }
  return s + ")";
}

// `call` (an element access up to its indices) indexed by the items of the tuple `ix`, evaluated once.
std::string Emitter::tuple_indexed(std::string call, const ast::Node& ix) {
  const std::string t = "cj_ix" + std::to_string(tmp_++);
  for (size_t k = 0; k < ix.type.elems.size(); ++k) call += ", (int64_t)" + t + ".f" + std::to_string(k);
  return "[&]() -> decltype(auto) { auto " + t + " = " + expr(ix) + "; return " + call + "); }()";
}

int Emitter::file_number(const std::string& filename) {
  const auto files = program_files(prog_);
  return (int)(std::find(files.begin(), files.end(), filename) - files.begin());
}

// A constant's literal; an enum member's tuple value is an aggregate initialiser of its struct.
std::string Emitter::constant(const Resolved& r, const Type& t) {
  if (t.tag == Type::Tag::String) return str_literal_code(r.literal);  // a str global: its text
  return r.literal.rfind("{", 0) == 0 ? type(t) + r.literal : r.literal;
}

std::string Emitter::subscript(const ast::Node& e) {
  const Type& base = e.value()->type;
  if (const Resolved* r = resolved(e); r && r->kind == Resolved::Kind::Constant) return constant(*r, e.type);  // Color["red"]
  if (base.is_list()) return list_subscript_code(e, [this](const ast::Node& n) { return expr(n); });  // codegen_lists.cpp
  if (base.is_array() && e.index()->type.is_array()) {  // a[idx], a[mask]: a new array (prelude/host_nplib.h)
    allocates_ = true;
    return "cj::fancy_get(" + expr(*e.value()) + ", " + expr(*e.index()) + ")";
  }
  if (base.tag == Type::Tag::String) return str_subscript_code(e, [this](const ast::Node& n) { return expr(n); });  // codegen_strings.cpp
  if (base.is_dict())  // codegen_dicts.cpp
    return dict_subscript_code(e, [this](const ast::Node& n) { return expr(n); },
                               [this](const std::string& c, const Type& f, const Type& t) { return convert(c, f, t); });
  if (base.is_tuple()) {
    const ast::Node& ix = *e.index();
    std::vector<int64_t> picks;
    if (ix.is(ast::Kind::Slice) && tuple_slice_picks(ix, base.elems.size(), &picks))
      return emit_tuple_slice(expr(*e.value()), base, e.type, picks, values());
    int64_t k;
    bool neg = ix.is(ast::Kind::UnaryOp) && ix.op == ast::Op::USub && ix.operand()->is(ast::Kind::Constant);
    if (ix.is(ast::Kind::Constant) || neg) {
      k = neg ? -ix.operand()->cval.i : ix.cval.i;
      if (k < 0) k += (int64_t)base.elems.size();
      return "(" + expr(*e.value()) + ").f" + std::to_string(k);
    }
    if (target_ == Target::CUDA && prog_.debug_checks && !fn_->host_only)
      return checked_tuple_item(prog_, *fn_, line_, expr(*e.value()), expr(ix));
    return "(" + expr(*e.value()) + ").at((int64_t)(" + expr(ix) + "))";
  }
  if (base.is_record()) return record_field_read(*base.record, record_field_of(e), expr(*e.value()));  // r['x'], r[0]
  if (base.is_record_array() && e.index()->is(ast::Kind::Constant) && e.index()->cval.tag == ast::ConstValue::Tag::Str)
    return record_array_field_view(base, *base.record->find(e.index()->cval.s), expr(*e.value()), e.type);  // a['x']
  if (e.type.is_record()) return "(&" + index_expr(e) + ")";  // a[i]: a reference to the element
  return index_expr(e);
}

}  // namespace detail
}  // namespace cujit
