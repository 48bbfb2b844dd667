// Typed AST -> C++ of the cujit dialect.
//
// Every function becomes a C++ function whose locals are declared at the top (Python scopes are
// per function), every expression is fully parenthesised and converted explicitly where Numba's
// rules convert it (the C++ compiler must never apply C's promotions on its own), and every
// statement is preceded by a #line directive so NVRTC and host-compiler messages, and debuggers,
// name the user's .py line. Tuples become small structs generated on demand.
#include "compiler/codegen.h"
#include "compiler/codegen_emitter.h"
#include "compiler/codegen_foreign.h"
#include "compiler/codegen_entry.h"
#include "compiler/codegen_iter.h"
#include "compiler/fnval.h"
#include "compiler/codegen_values.h"
#include "compiler/libdevice.h"
#include "compiler/layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

namespace cujit {

namespace {
// A scalar's name as part of an identifier: "datetime64[D]" is "datetime64_D".
std::string scalar_ident(Scalar s) {
  std::string n = scalar_name(s);
  for (char& c : n) if (c == '[') c = '_';
  if (!n.empty() && n.back() == ']') n.pop_back();
  return n;
}

std::string mangle(const Type& t) {
  switch (t.tag) {
    case Type::Tag::Scalar: return scalar_ident(t.scalar);
    case Type::Tag::Tuple: {
      std::string s = "T";
      for (const auto& e : t.elems) s += "_" + mangle(e);
      return s + "_E";
    }
    case Type::Tag::Array:
      if (t.record) return "AR" + std::to_string(t.record->size) + "_" + std::to_string(t.record->align) + "_" + std::to_string(t.ndim);
      return std::string("A") + scalar_ident(t.scalar) + "_" + std::to_string(t.ndim);
    case Type::Tag::Record: return "R" + std::to_string(t.record->size) + "_" + std::to_string(t.record->align);
    case Type::Tag::CharSeq: return std::string("C") + scalar_ident(t.scalar) + "_" + std::to_string(t.ndim);
    // Containers by their items: a tuple of list(int64) and one of list(float64) are two structs.
    case Type::Tag::List: case Type::Tag::Set: case Type::Tag::Dict: case Type::Tag::Optional: {
      std::string s = t.is_list() ? "L" : t.is_set() ? "S" : t.is_dict() ? "D" : "O";
      for (const auto& e : t.elems) s += "_" + mangle(e);
      return s + "_E";
    }
    default: return "x";
  }
}

std::string quote_file(const std::string& f) {
  std::string s = "\"";
  for (char c : f) {
    if (c == '\\' || c == '"') s += '\\';
    if (c == '\n') continue;
    s += c;
  }
  return s + "\"";
}
}  // namespace

std::string cpp_type(const Type& t) {
  switch (t.tag) {
    case Type::Tag::Scalar: return scalar_cpp(t.scalar);
    case Type::Tag::EnumMember: return cpp_type(t.elems[0]);  // its value
    case Type::Tag::Tuple: return "cj_" + mangle(t);
    case Type::Tag::Array:
      return "cj::Array<" + (t.record ? record_cpp(*t.record) : std::string(scalar_cpp(t.scalar))) + ", " + std::to_string(t.ndim) + ">";
    case Type::Tag::Record: return record_cpp(*t.record) + "*";  // a reference to the record's bytes
    case Type::Tag::Void: case Type::Tag::None: return "void";
    case Type::Tag::Optional: return "cj::Optional<" + cpp_type(t.elems[0]) + ">";
    case Type::Tag::Function: case Type::Tag::DType: return "cj::Unit";  // is_compile_time_value
    case Type::Tag::GridGroup: return "cj::GridGroup";
    case Type::Tag::List: return list_cpp(t);  // codegen_lists.cpp
    case Type::Tag::String: return "cj::Str";  // prelude/host_str.h
    case Type::Tag::CharSeq: return charseq_cpp(t);  // codegen_charseq.cpp
    case Type::Tag::Dict: case Type::Tag::Set: return dict_cpp(t);  // codegen_dicts.cpp
    default: throw InternalError("no C++ type for " + t.str());
  }
}

namespace detail {

std::string Emitter::run(const std::vector<EntryPoint>& entries) {
  // Only instances reachable from the entries are emitted (early inference passes may have
  // typed a callee for argument types that did not survive).
  std::vector<int> order;
  std::set<int> seen;
  std::function<void(int)> visit = [&](int i) {
    if (!seen.insert(i).second) return;
    for (auto& [node, r] : prog_.fns[i]->resolved)
      if (r.kind == Resolved::Kind::UserFunction && r.instance >= 0) visit(r.instance);
    order.push_back(i);
  };
  for (auto& e : entries) {
    for (auto& s : e.steps) visit(s.instance);  // a fused chain calls every step's function
    visit(e.instance);
  }
  co_choose(entries);  // the simulator's synchronising kernel as a coroutine (codegen_simco.cpp)

  std::ostringstream fns;
  for (int i : order) fns << function(*prog_.fns[i]);
  std::ostringstream ents;
  EntryContext cx{target_, uses_barrier_, allocates_, [this](const Type& t) { return param_type(t); }};
  std::function<bool(const ast::Node&)> strides_read = [&](const ast::Node& n) {
    if (n.is(ast::Kind::Attribute) && (n.name == "strides" || n.name == "flags")) return true;
    bool any = false;
    ast::for_each_child(n, [&](const ast::Node& c) { any = any || strides_read(c); });
    return any;
  };
  for (int i : order) cx.reads_strides = cx.reads_strides || strides_read(*prog_.fns[i]->mod.func);
  for (auto& e : entries) {
    cx.co_frame = prog_.fns[e.instance].get() == co_fn_ ? co_frame(*co_fn_) : "";
    ents << (e.kind == EntryPoint::Kind::FusedUfunc ? emit_fused_entry(e, prog_, cx) : emit_entry(e, *prog_.fns[e.instance], cx));
  }

  std::ostringstream out;
  out << "// Generated by cujit from Python source.\n";
  // The index width array indexing uses (prelude/common.h IndexWidth): 32-bit in a kernel's
  // narrow variant, which defines CJ_INDEX32 before this text (pipeline.h kernel_variant_source).
  out << "namespace cj {\ntemplate <int D>\nstruct IndexWidth {\n#ifdef CJ_INDEX32\n  static constexpr bool narrow = true;\n#else\n"
         "  static constexpr bool narrow = false;\n#endif\n};\n}  // namespace cj\n";
  out << structs_.str();
  out << libdevice_definitions(libdevice_, target_ == Target::CUDA);
  out << foreign_prologue(prog_, target_);
  for (int i : order) out << signature(*prog_.fns[i]) << ";\n";
  out << fns.str() << ents.str();
  return out.str();
}

std::string Emitter::type(const Type& t) {
  if (t.is_tuple()) tuple_struct(t);
  if (t.is_optional() || t.tag == Type::Tag::EnumMember) type(t.elems[0]);
  if (t.is_list() || t.is_dict() || t.is_set())  // their items' tuple structs
    for (const auto& e : t.elems)
      if (e.known()) type(e);
  return cpp_type(t);
}

void Emitter::tuple_struct(const Type& t) {
  std::string name = cpp_type(t);
  if (emitted_structs_.count(name)) return;
  for (auto& e : t.elems)  // the structs its items name first (a tuple's, a list's tuples, ...)
    if (e.is_tuple() || e.is_list() || e.is_dict() || e.is_set() || e.is_optional()) type(e);
  emitted_structs_.insert(name);
  structs_ << "struct " << name << " {";
  // A None item is a bool (always false, what a None constant's code is): C++ has no void member.
  for (size_t i = 0; i < t.elems.size(); ++i)
    structs_ << " " << (t.elems[i].tag == Type::Tag::None ? std::string("bool") : cpp_type(t.elems[i])) << " f" << i << ";";
  bool uni = !t.elems.empty();  // items of one type, numbers or not (a tuple of arrays too)
  for (auto& e : t.elems) uni = uni && e == t.elems[0];
  if (uni) {  // a run-time index into a UniTuple; `fail` past its end
    auto at = [&](const char* head, const char* signature, const std::string& fail) {
      structs_ << head << cpp_type(t.elems[0]) << " " << signature << " const { if (i < 0) i += " << t.elems.size()
               << "; switch (i) {";
      for (size_t i = 0; i < t.elems.size(); ++i) structs_ << " case " << i << ": return f" << i << ";";
      structs_ << " default: " << fail << "; return f0; } }\n";
    };
    at("\n  CJ_METHOD ", "at(int64_t i)", std::string("cj::") + (prog_.host_only ? "py_" : "") + "tuple_index_error()");
    if (target_ == Target::CUDA && prog_.debug_checks)  // debug=True: the raise named by `site`
      at("  __device__ ", "at_or_raise(int64_t i, int32_t site)", "cj::gpu_raise(site)");
  }
  if (target_ == Target::Host) {  // hashing and comparing a tuple key (prelude/host_dict.h)
    structs_ << "\n  static constexpr int cj_arity = " << t.elems.size() << ";\n  template <class F> void cj_visit(F&& f) const {";
    for (size_t i = 0; i < t.elems.size(); ++i) structs_ << " f(f" << i << ");";
    structs_ << " }\n  template <class F> bool cj_zip(const " << name << "& o, F&& f) const { return true";
    for (size_t i = 0; i < t.elems.size(); ++i) structs_ << " && f(f" << i << ", o.f" << i << ")";
    structs_ << "; }\n";
  }
  structs_ << " };\n";
  // The runtime's reading of it (layout.h), checked here; NVRTC has no offsetof, and the host
  // compiler's check of the offsets holds for the same struct rules on the GPU.
  const Layout l = value_layout(t);
  structs_ << "static_assert(sizeof(" << name << ") == " << l.size << " && alignof(" << name << ") == " << l.align;
  for (size_t i = 0; target_ == Target::Host && i < l.offsets.size(); ++i)
    structs_ << " && __builtin_offsetof(" << name << ", f" << i << ") == " << l.offsets[i];
  structs_ << ", \"tuple layout\");\n";
}

/// `code` (of type `from`) converted to `to`, as Numba converts on assignment and return.
std::string Emitter::convert(const std::string& code, const Type& from, const Type& to) {
  if (from == to || !to.known() || to.tag == Type::Tag::Void) return code;
  if (to.is_optional()) return optional_convert(code, from, to, values());
  if (from.is_optional()) throw InternalError("codegen: an optional value converted to " + to.str() + " without unwrapping");
  if (from.tag == Type::Tag::EnumMember) return convert(code, from.elems[0], to);  // its value
  // A 0-d array where a number is wanted (an operand of a ufunc or operator whose inputs are all
  // 0-d: Numba's result is a number, typeinfer_ufunc.cpp): its one element.
  if (from.is_array() && from.ndim == 0 && !from.record && to.is_scalar())
    return convert("(*(" + code + ").data)", Type::scalar_of(from.scalar), to);
  if (to.is_scalar() && from.is_scalar()) {
    if (is_time(from.scalar) || is_time(to.scalar))  // typing allows no such conversion (typeinfer_datetime.cpp)
      throw InternalError("codegen: conversion of " + from.str() + " to " + to.str());
    if (is_complex(from.scalar) && !is_complex(to.scalar) && !is_bool(to.scalar))  // Numba: the real part
      return "((" + type(to) + ")(" + code + ").re)";
    return "((" + type(to) + ")(" + code + "))";
  }
  if (to.is_tuple() && from.is_tuple() && to.elems.size() == from.elems.size()) {
    std::string t = "cj_c" + std::to_string(tmp_++);
    std::string s = "([&]() { auto " + t + " = " + code + "; return " + type(to) + "{";
    for (size_t i = 0; i < to.elems.size(); ++i)
      s += (i ? ", " : "") + convert(t + ".f" + std::to_string(i), from.elems[i], to.elems[i]);
    return s + "}; }())";
  }
  if (to.is_array() && from.is_array() && to.ndim == from.ndim && to.scalar == from.scalar) return code;
  throw InternalError("cannot convert " + from.str() + " to " + to.str());
}

std::string Emitter::signature(const FunctionInstance& f) {
  // A coroutine (codegen_simco.cpp) runs on its frame and returns where it stopped.
  const bool coroutine = &f == co_fn_;
  std::string s = "CJ_DEVICE static " + (coroutine ? std::string("int") : f.ret.tag == Type::Tag::Void ? std::string("void") : type(f.ret)) +
                  " " + f.cpp_name + "(" + (coroutine ? co_frame(f) + "& cj_fr" : "");
  const auto& params = f.mod.func->params;
  for (size_t i = 0; i < params.size(); ++i)
    s += (i || coroutine ? ", " : "") + param_type(f.arg_types[i]) + " p_" + params[i].name;
  return s + ")";
}

std::string Emitter::line(const ast::Node& n) {
  return "#line " + std::to_string(n.loc.line) + " " + quote_file(fn_->mod.source.filename) + "\n";
}

std::string Emitter::function(const FunctionInstance& f) {
  fn_ = &f;
  body_.str("");
  storage_.str("");
  shared_layouts_.clear();
  if (target_ == Target::CUDA && !f.host_only) {
    // Padding may add to the static shared memory of any kernel that reaches f: each function
    // with shared arrays gets an equal part of what the whole program leaves under 48 KiB.
    int64_t total = 0, holders = 0;
    for (const auto& g : prog_.fns) {
      for (const auto& [node, bytes] : g->shared_bytes) total += bytes;
      holders += g->shared_bytes.empty() ? 0 : 1;
    }
    shared_layouts_ = plan_shared_layouts(f, holders ? (48 * 1024 - total) / holders : 0);
  }
  indent_ = 1;
  const ast::Node& def = *f.mod.func;
  std::ostringstream os;
  os << line(def) << signature(f) << " {\n";
  if (!co())
    for (const auto& v : f.cpp_locals) body_ << "  " << type(v.type) << " " << v.cpp << "{};\n";
  for (size_t i = 0; i < def.params.size(); ++i) {
    const LocalVar& v = f.param_vars[i];
    if (!v.cpp.empty()) out(v.cpp + " = " + convert("p_" + def.params[i].name, f.arg_types[i], v.type) + ";");
  }
  block(def.body);
  // The end of a function that returns a value, unless its last statement is a return: typing
  // made the result optional if control can get here (this returns None), or proved it cannot
  // (can_fall_through), where this dead return keeps the C++ defined whatever the C++
  // compiler can prove (a for ... else with returns, `while True:`).
  if (f.ret.tag != Type::Tag::Void && f.ret.tag != Type::Tag::None && !(!def.body.empty() && def.body.back()->is(ast::Kind::Return)))
    out("return " + type(f.ret) + "{};");
  if (co()) os << co_function(f, body_.str()) << "}\n";
  else os << storage_.str() << body_.str() << "}\n";
  return os.str();
}

}  // namespace detail

std::vector<std::string> program_files(const Program& prog) {
  std::vector<std::string> files;
  for (const auto& f : prog.fns)
    if (std::find(files.begin(), files.end(), f->mod.source.filename) == files.end()) files.push_back(f->mod.source.filename);
  return files;
}

bool uses_grid_group(const Program& prog) {
  for (const auto& f : prog.fns)
    for (const auto& [node, r] : f->resolved)
      if (r.kind == Resolved::Kind::Builtin && r.builtin == Builtin::CgThisGrid) return true;
  return false;
}

bool uses_shared_memory(const Program& prog) {
  for (const auto& f : prog.fns)
    for (const auto& [node, r] : f->resolved)
      if (r.kind == Resolved::Kind::Builtin && r.builtin == Builtin::CudaSharedArray) return true;
  return false;
}

std::string emit_program(const Program& prog, const std::vector<EntryPoint>& entries, Target target,
                         std::vector<CheckSite>* sites) {
  detail::Emitter e(prog, target);
  std::string code = e.run(entries);
  if (sites) *sites = std::move(e.sites_);
  return code;
}

}  // namespace cujit
